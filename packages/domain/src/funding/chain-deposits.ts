import { fitsNumeric } from "@northstar/shared/money";
import { depositMachine } from "@northstar/shared/state-machines";
import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { postEntry } from "../ledger/index.ts";
import { type PriceProvider, valueInUsdt } from "../markets/index.ts";
import { addMessage } from "../messages/index.ts";
import { transition } from "../state/index.ts";
import { deposits } from "./funding.table.ts";

/**
 * Deposits on a watched chain. The chain module's watcher sees a transfer to a user's deposit address
 * and records it here as a pending deposit showing its confirmations; after enough of them it credits
 * it (the system, not an operator, moves it pending → success). One deposit per transfer: chain,
 * transaction hash and which transfer of it (−1 the native one, else the log index).
 */
export interface ChainDepositInput {
  userId: number;
  chain: string;
  currency: string;
  amount: string;
  txHash: string;
  logIndex: number;
  confirmations: number;
  confirmationsRequired: number;
}

/** One deposit by id (null when there is none). */
export async function findDeposit(db: DbOrTx, depositId: number) {
  const [row] = await db.select().from(deposits).where(eq(deposits.id, depositId));
  return row ?? null;
}

/** Records (or finds, when already recorded) the pending deposit of one transfer; returns its id. */
export async function recordChainDeposit(tx: DbOrTx, input: ChainDepositInput): Promise<number> {
  const [row] = await tx
    .insert(deposits)
    .values({
      userId: input.userId,
      channel: "crypto",
      currency: input.currency,
      chain: input.chain,
      amount: input.amount,
      txHash: input.txHash,
      logIndex: input.logIndex,
      confirmations: input.confirmations,
      confirmationsRequired: input.confirmationsRequired,
    })
    .onConflictDoNothing()
    .returning({ id: deposits.id });
  if (row) {
    return row.id;
  }
  const [existing] = await tx
    .select({ id: deposits.id })
    .from(deposits)
    .where(
      and(
        eq(deposits.chain, input.chain),
        eq(deposits.txHash, input.txHash),
        eq(deposits.logIndex, input.logIndex),
      ),
    )
    .orderBy(deposits.id)
    .limit(1);
  if (!existing) {
    throw new Error(`deposit of ${input.txHash}:${input.logIndex} neither recorded nor found`);
  }
  return existing.id;
}

/** The confirmations a pending chain deposit shows ("confirming n/N"); a settled one keeps its last. */
export async function setChainDepositConfirmations(
  tx: DbOrTx,
  depositId: number,
  confirmations: number,
): Promise<void> {
  await tx
    .update(deposits)
    .set({ confirmations })
    .where(and(eq(deposits.id, depositId), eq(deposits.status, "pending")));
}

/**
 * Credits a pending chain deposit: pending → success and, in the same transaction, the coins move from
 * the chain custody account where they arrived (`chain_custody:<chain>:deposits`) to the user's
 * exchange wallet. The ledger key is the transfer's, so however often this is called it credits once.
 * Returns false when the deposit was no longer pending.
 */
export async function creditChainDeposit(
  tx: DbOrTx,
  prices: PriceProvider,
  params: { depositId: number; custodyAccount: `chain_custody:${string}`; confirmations: number },
): Promise<boolean> {
  const [deposit] = await tx.select().from(deposits).where(eq(deposits.id, params.depositId)).for("update");
  if (!deposit) {
    throw new AppError("NOT_FOUND");
  }
  if (deposit.status !== "pending") {
    return false;
  }
  const valueUsdt = (await valueInUsdt(prices, deposit.currency, deposit.amount)) ?? "0";
  const moved = await transition(tx, {
    machine: depositMachine,
    table: deposits,
    id: deposit.id,
    from: "pending",
    to: "success",
    by: "system",
    set: {
      reviewedAt: new Date(),
      valueUsdt: fitsNumeric(valueUsdt) ? valueUsdt : "0",
      confirmations: params.confirmations,
    },
  });
  if (!moved) {
    return false;
  }
  await postEntry(tx, {
    idempotencyKey: `deposit:${deposit.chain}:${deposit.txHash}:${deposit.logIndex ?? -1}:credit`,
    kind: "deposit.confirm",
    reference: { type: "deposit", id: deposit.id },
    postings: [
      {
        account: { system: params.custodyAccount, book: "real", currency: deposit.currency },
        amount: `-${deposit.amount}`,
      },
      {
        account: { userId: deposit.userId, book: "real", wallet: "exchange", currency: deposit.currency },
        amount: deposit.amount,
      },
    ],
  });
  await addMessage(tx, {
    userId: deposit.userId,
    kind: "deposit.confirmed",
    params: { amount: deposit.amount, currency: deposit.currency },
    eventKey: `deposit:${deposit.id}:confirmed`,
  });
  return true;
}

/**
 * A chain deposit that will never be credited (below the minimum): pending → failed by the system. The
 * record stays for the user and the operators; no money moves.
 */
export async function refuseChainDeposit(tx: DbOrTx, depositId: number): Promise<boolean> {
  return transition(tx, {
    machine: depositMachine,
    table: deposits,
    id: depositId,
    from: "pending",
    to: "failed",
    by: "system",
    set: { reviewedAt: new Date() },
  });
}
