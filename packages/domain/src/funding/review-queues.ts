import type { WithdrawalStatus } from "@northstar/shared/state-machines";
import { desc, eq } from "drizzle-orm";
import type { DbOrTx } from "../db/client.ts";
import { depositAddresses, deposits, withdrawals } from "./funding.table.ts";

// Review queues show the newest 200; older rows are reached through the user lookup.
const QUEUE_LIMIT = 200;

export function listDepositsForReview(db: DbOrTx, status?: "pending" | "success" | "failed") {
  return db
    .select()
    .from(deposits)
    .where(status ? eq(deposits.status, status) : undefined)
    .orderBy(desc(deposits.id))
    .limit(QUEUE_LIMIT);
}

export function listWithdrawalsForReview(db: DbOrTx, status?: WithdrawalStatus) {
  return db
    .select()
    .from(withdrawals)
    .where(status ? eq(withdrawals.status, status) : undefined)
    .orderBy(desc(withdrawals.id))
    .limit(QUEUE_LIMIT);
}

export function listDepositAddresses(db: DbOrTx) {
  return db.select().from(depositAddresses).orderBy(depositAddresses.currency, depositAddresses.chain);
}
