import type { Db } from "@northstar/domain/db";
import { runLoanOverdue } from "@northstar/domain/loans";

export interface LoanOverdueDeps {
  db: Db;
  /** The instant a run charges up to; tests pass a test clock. */
  now: () => Date;
  log: (line: string) => void;
}

/**
 * Charges every outstanding loan's late-fee days due by now (after the due day and the grace days)
 * and marks those loans overdue with their days. Idempotent per loan and day (a unique row per loan
 * and day, and the loan's charged-day count under its row lock), so a redelivered job or two
 * overlapping runs charge nothing twice; a run after days of downtime charges every missed day.
 */
export async function processLoanOverdue(deps: LoanOverdueDeps) {
  const result = await runLoanOverdue(deps.db, deps.now());
  if (result.days > 0) {
    deps.log(`loan-overdue ${result.day}: ${result.days} late-fee day(s) on ${result.loans} loan(s)`);
  }
  return result;
}
