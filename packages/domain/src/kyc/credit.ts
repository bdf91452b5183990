import { creditScore, loanLimitFor } from "@northstar/shared/kyc";
import { eq } from "drizzle-orm";
import type { DbOrTx } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { users } from "../identity/index.ts";
import { getPolicy } from "../policy/index.ts";
import { assertGate } from "./gates.ts";
import { latestApplications, toUserId } from "./status.ts";

export type RepaymentHistory = { onTime: number; late: number };
type RepaymentSource = (db: DbOrTx, userId: number) => Promise<RepaymentHistory>;

let repaymentSource: RepaymentSource | null = null;

/**
 * The loans module (above this one on the ladder) registers where repayment history comes from when
 * it loads. Until a loans module exists no user has repaid anything: the factor is zero, not faked.
 */
export function registerRepaymentHistory(source: RepaymentSource): void {
  repaymentSource = source;
}

const monthsBetween = (from: Date, to: Date) => {
  const months = (to.getUTCFullYear() - from.getUTCFullYear()) * 12 + (to.getUTCMonth() - from.getUTCMonth());
  return to.getUTCDate() < from.getUTCDate() ? months - 1 : months;
};

/**
 * The credit score (needs primary KYC): the published formula of `@northstar/shared/kyc` over the
 * verified levels, the account's age, repayment history and the operator's assessment of a credit
 * proof; with each factor's points and the loan limit it gives (policy `kyc.credit.loanLimits`).
 */
export async function getCreditScore(db: DbOrTx, userId: string | number, now = new Date()) {
  const id = toUserId(userId);
  await assertGate(db, id, "creditScore");
  const [[user], latest, points, limits, repayments] = await Promise.all([
    db.select({ createdAt: users.createdAt }).from(users).where(eq(users.id, id)),
    latestApplications(db, id),
    getPolicy(db, "kyc.credit.points"),
    getPolicy(db, "kyc.credit.loanLimits"),
    repaymentSource ? repaymentSource(db, id) : Promise.resolve({ onTime: 0, late: 0 }),
  ]);
  if (!user) {
    throw new AppError("NOT_FOUND");
  }
  const credit = latest("credit");
  const assessed = credit?.status === "approved";
  const { score, factors } = creditScore(
    {
      primary: latest("primary")?.status === "approved",
      advanced: latest("advanced")?.status === "approved",
      address: latest("address")?.status === "approved",
      accountMonths: monthsBetween(user.createdAt, now),
      repayments,
      assessment: assessed ? (credit.assessmentPoints ?? 0) : 0,
    },
    points,
  );
  return {
    score,
    max: points.max,
    factors,
    loanLimitUsdt: loanLimitFor(score, limits),
    /** When an operator last assessed a credit proof; null: the score is the formula's alone. */
    assessedAt: assessed ? credit.reviewedAt : null,
    computedAt: now,
  };
}
