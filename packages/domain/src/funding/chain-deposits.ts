import { fitsNumeric } from "@northstar/shared/money";
import { depositMachine } from "@northstar/shared/state-machines";
import { and, asc, eq, sql } from "drizzle-orm";
import { type DbOrTx, executePrepared } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { type EntryInput, postEntries, postEntry } from "../ledger/index.ts";
import { type PriceProvider, valueInUsdt } from "../markets/index.ts";
import { addMessage, addMessages, type NewMessage } from "../messages/index.ts";
import { transition, transitionMany } from "../state/index.ts";
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

/** The key of one chain transfer in the maps the batch functions return. */
export function chainTransferKey(txHash: string, logIndex: number): string {
  return `${txHash}:${logIndex}`;
}

/**
 * `recordChainDeposit` for all the transfers of one block at once: one multi-row insert (a transfer
 * already recorded is kept, not doubled), one lookup of those already recorded, and the ones in
 * `refuse` (below the minimum) moved pending → failed in one statement through the state machine.
 * Returns each transfer's deposit id by `chainTransferKey`.
 */
export async function recordChainDeposits(
  tx: DbOrTx,
  inputs: readonly (ChainDepositInput & { refuse?: boolean })[],
): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  if (inputs.length === 0) {
    return ids;
  }
  const json = JSON.stringify(
    inputs.map((i) => ({
      user_id: i.userId,
      currency: i.currency,
      chain: i.chain,
      amount: i.amount,
      tx_hash: i.txHash,
      log_index: i.logIndex,
      confirmations: i.confirmations,
      confirmations_required: i.confirmationsRequired,
    })),
  );
  const inserted = await executePrepared<{ id: string; tx_hash: string; log_index: number }>(
    tx,
    sql`insert into deposits
        (user_id, channel, currency, chain, amount, tx_hash, log_index, confirmations, confirmations_required)
      select v.user_id, 'crypto', v.currency, v.chain, v.amount, v.tx_hash, v.log_index, v.confirmations,
             v.confirmations_required
      from jsonb_to_recordset(${json}::jsonb) as v(user_id bigint, currency text, chain text, amount numeric,
        tx_hash text, log_index integer, confirmations integer, confirmations_required integer)
      on conflict do nothing
      returning id, tx_hash, log_index`,
  );
  for (const row of inserted.rows) {
    ids.set(chainTransferKey(row.tx_hash, row.log_index), Number(row.id));
  }
  const missing = inputs.filter((i) => !ids.has(chainTransferKey(i.txHash, i.logIndex)));
  if (missing.length > 0) {
    // Recorded before (a retried block, or a claim): the deposit that is not failed, as the unique
    // index allows one.
    const found = await executePrepared<{ id: string; tx_hash: string; log_index: number }>(
      tx,
      sql`select distinct on (d.chain, d.tx_hash, d.log_index) d.id, d.tx_hash, d.log_index
        from deposits d
        join jsonb_to_recordset(${JSON.stringify(
          missing.map((m) => ({ chain: m.chain, tx_hash: m.txHash, log_index: m.logIndex })),
        )}::jsonb) as v(chain text, tx_hash text, log_index integer)
          on d.chain = v.chain and d.tx_hash = v.tx_hash and d.log_index = v.log_index
        order by d.chain, d.tx_hash, d.log_index, d.id`,
    );
    for (const row of found.rows) {
      ids.set(chainTransferKey(row.tx_hash, row.log_index), Number(row.id));
    }
    for (const m of missing) {
      if (!ids.has(chainTransferKey(m.txHash, m.logIndex))) {
        throw new Error(`deposit of ${m.txHash}:${m.logIndex} neither recorded nor found`);
      }
    }
  }
  const now = new Date().toISOString();
  await transitionMany(tx, {
    machine: depositMachine,
    table: "deposits",
    by: "system",
    columns: { reviewed_at: "timestamptz" },
    updatedAt: false,
    rows: inputs
      .filter((i) => i.refuse)
      .map((i) => ({
        id: ids.get(chainTransferKey(i.txHash, i.logIndex)) as number,
        from: "pending" as const,
        to: "failed" as const,
        values: { reviewed_at: now },
      })),
  });
  return ids;
}

/** `setChainDepositConfirmations` for many deposits in one statement. */
export async function setChainDepositsConfirmations(
  tx: DbOrTx,
  rows: readonly { depositId: number; confirmations: number }[],
): Promise<void> {
  if (rows.length === 0) {
    return;
  }
  const json = JSON.stringify(rows.map((r) => ({ id: r.depositId, confirmations: r.confirmations })));
  await executePrepared(
    tx,
    sql`update deposits d set confirmations = v.confirmations
      from jsonb_to_recordset(${json}::jsonb) as v(id bigint, confirmations integer)
      where d.id = v.id and d.status = 'pending'`,
  );
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
 * `creditChainDeposit` for many deposits in one transaction, in a fixed number of statements: the
 * deposits locked in id order, those still pending moved to success through the state machine in one
 * statement, their ledger entries (each keyed by its transfer, so credited once however often this
 * runs) and messages written together. Returns the ids credited now.
 */
export async function creditChainDeposits(
  tx: DbOrTx,
  prices: PriceProvider,
  params: {
    custodyAccount: `chain_custody:${string}`;
    items: readonly { depositId: number; confirmations: number }[];
  },
): Promise<Set<number>> {
  if (params.items.length === 0) {
    return new Set();
  }
  const confirmationsOf = new Map(params.items.map((i) => [i.depositId, i.confirmations]));
  const locked = await tx
    .select()
    .from(deposits)
    .where(sql`${deposits.id} = any(${sql.param([...confirmationsOf.keys()])}::bigint[])`)
    .orderBy(asc(deposits.id))
    .for("update");
  const pending = locked.filter((d) => d.status === "pending");
  const reviewedAt = new Date().toISOString();
  const rows = await Promise.all(
    pending.map(async (d) => {
      const valueUsdt = (await valueInUsdt(prices, d.currency, d.amount)) ?? "0";
      return {
        id: d.id,
        from: "pending" as const,
        to: "success" as const,
        values: {
          reviewed_at: reviewedAt,
          value_usdt: fitsNumeric(valueUsdt) ? valueUsdt : "0",
          confirmations: confirmationsOf.get(d.id) ?? d.confirmations ?? 0,
        },
      };
    }),
  );
  const moved = await transitionMany(tx, {
    machine: depositMachine,
    table: "deposits",
    by: "system",
    columns: { reviewed_at: "timestamptz", value_usdt: "numeric", confirmations: "integer" },
    updatedAt: false,
    rows,
  });
  const credited = pending.filter((d) => moved.has(d.id));
  const entries: EntryInput[] = credited.map((deposit) => ({
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
  }));
  await postEntries(tx, entries);
  const messages: NewMessage[] = credited.map((deposit) => ({
    userId: deposit.userId,
    kind: "deposit.confirmed",
    params: { amount: deposit.amount, currency: deposit.currency },
    eventKey: `deposit:${deposit.id}:confirmed`,
  }));
  await addMessages(tx, messages);
  return new Set(credited.map((d) => d.id));
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
