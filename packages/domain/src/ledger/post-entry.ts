import { MoneyDecimal } from "@northstar/shared/money";
import { sql } from "drizzle-orm";
import type { DbOrTx } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { type Book, type Bucket, journalEntries, postings, type Wallet } from "./ledger.table.ts";

/** System accounts hold the other side of user balances; clearing accounts are per channel. */
export type SystemCode =
  | "fees"
  | "house"
  | "yield_expense"
  | "loan_principal"
  | "demo_faucet"
  | "market_maker"
  | `deposit_clearing:${string}`
  | `withdrawal_clearing:${string}`;

export type AccountRef =
  | { userId: number; book: Book; wallet: Wallet; currency: string; bucket?: Bucket }
  | { system: SystemCode; book: Book; currency: string };

export interface PostingInput {
  account: AccountRef;
  /** Signed decimal string: positive credits the account, negative debits it. */
  amount: string;
}

export interface EntryInput {
  /** Unique per business event: a retried request or job with the same key applies nothing. */
  idempotencyKey: string;
  kind: string;
  reference: { type: string; id: string | number };
  memo?: string;
  postings: PostingInput[];
}

const AMOUNT = /^-?(0|[1-9]\d{0,19})(\.\d{1,18})?$/;
const CHECK_VIOLATION = "23514";

const refKey = (ref: AccountRef) =>
  "system" in ref
    ? `s|${ref.system}|${ref.book}|${ref.currency}`
    : `u|${ref.userId}|${ref.book}|${ref.wallet}|${ref.currency}|${ref.bucket ?? "available"}`;

function validate(input: EntryInput): Book {
  if (input.postings.length < 2) {
    throw new Error(`ledger entry ${input.idempotencyKey}: needs at least two postings`);
  }
  const book = input.postings[0]?.account.book as Book;
  const sums = new Map<string, InstanceType<typeof MoneyDecimal>>();
  for (const p of input.postings) {
    if (!AMOUNT.test(p.amount) || new MoneyDecimal(p.amount).isZero()) {
      throw new Error(`ledger entry ${input.idempotencyKey}: bad amount ${p.amount}`);
    }
    // The demo book and the real book never exchange value.
    if (p.account.book !== book) {
      throw new Error(`ledger entry ${input.idempotencyKey}: mixes books`);
    }
    const currency = p.account.currency;
    sums.set(currency, (sums.get(currency) ?? new MoneyDecimal(0)).plus(p.amount));
  }
  for (const [currency, sum] of sums) {
    if (!sum.isZero()) {
      throw new Error(
        `ledger entry ${input.idempotencyKey}: ${currency} sums to ${sum.toString()}, not zero`,
      );
    }
  }
  return book;
}

/** Finds or creates the account a reference names, and returns its id. */
async function accountId(db: DbOrTx, ref: AccountRef): Promise<number> {
  const result =
    "system" in ref
      ? await db.execute<{ id: number }>(sql`
          with ins as (
            insert into ledger_accounts (system_code, book, currency, bucket)
            values (${ref.system}, ${ref.book}, ${ref.currency}, 'available')
            on conflict (system_code, book, currency) where system_code is not null do nothing
            returning id)
          select id from ins
          union all
          select id from ledger_accounts where system_code = ${ref.system} and book = ${ref.book} and currency = ${ref.currency}
          limit 1`)
      : await db.execute<{ id: number }>(sql`
          with ins as (
            insert into ledger_accounts (user_id, book, wallet, currency, bucket)
            values (${ref.userId}, ${ref.book}, ${ref.wallet}, ${ref.currency}, ${ref.bucket ?? "available"})
            on conflict (user_id, book, wallet, currency, bucket) where user_id is not null do nothing
            returning id)
          select id from ins
          union all
          select id from ledger_accounts
          where user_id = ${ref.userId} and book = ${ref.book} and wallet = ${ref.wallet}
            and currency = ${ref.currency} and bucket = ${ref.bucket ?? "available"}
          limit 1`);
  let id = result.rows[0]?.id;
  if (id === undefined) {
    // Another transaction created the account while this statement ran; its snapshot could not see
    // the row, a new statement does.
    const again = await db.execute<{ id: number }>(
      "system" in ref
        ? sql`select id from ledger_accounts where system_code = ${ref.system} and book = ${ref.book} and currency = ${ref.currency}`
        : sql`select id from ledger_accounts where user_id = ${ref.userId} and book = ${ref.book}
              and wallet = ${ref.wallet} and currency = ${ref.currency} and bucket = ${ref.bucket ?? "available"}`,
    );
    id = again.rows[0]?.id;
  }
  if (id === undefined) {
    throw new Error(`ledger account not found or created: ${refKey(ref)}`);
  }
  return Number(id);
}

/**
 * The one function through which every module moves money. Writes a journal entry and its postings
 * and updates balances, in the caller's transaction (a savepoint when one is open), so the entry
 * commits with the business row it belongs to. Returns `applied: false` when the idempotency key
 * was already used: nothing changes the second time. A user balance that would go negative refuses
 * the whole entry with INSUFFICIENT_BALANCE.
 */
export async function postEntry(
  db: DbOrTx,
  input: EntryInput,
): Promise<{ entryId: number; applied: boolean }> {
  const book = validate(input);
  try {
    return await db.transaction(async (tx) => {
      const [entry] = await tx
        .insert(journalEntries)
        .values({
          idempotencyKey: input.idempotencyKey,
          book,
          kind: input.kind,
          referenceType: input.reference.type,
          referenceId: String(input.reference.id),
          memo: input.memo ?? null,
        })
        .onConflictDoNothing({ target: journalEntries.idempotencyKey })
        .returning({ id: journalEntries.id });
      if (!entry) {
        const existing = await tx.execute<{ id: number }>(
          sql`select id from journal_entries where idempotency_key = ${input.idempotencyKey}`,
        );
        return { entryId: Number(existing.rows[0]?.id), applied: false };
      }

      // Net change per account; balances are updated in account-id order so that two entries
      // touching the same accounts always lock them in the same order and cannot deadlock.
      // One statement at a time: a transaction is one connection.
      const resolved: (PostingInput & { accountId: number })[] = [];
      for (const p of input.postings) {
        resolved.push({ ...p, accountId: await accountId(tx, p.account) });
      }
      const net = new Map<number, InstanceType<typeof MoneyDecimal>>();
      for (const p of resolved) {
        net.set(p.accountId, (net.get(p.accountId) ?? new MoneyDecimal(0)).plus(p.amount));
      }
      const balances = new Map<number, InstanceType<typeof MoneyDecimal>>();
      for (const id of [...net.keys()].sort((a, b) => a - b)) {
        const change = net.get(id)?.toFixed() ?? "0";
        const updated = await tx.execute<{ balance: string }>(
          sql`update ledger_accounts set balance = balance + ${change}::numeric where id = ${id} returning balance`,
        );
        // Start from the balance before this entry, then replay each posting for balance_after.
        balances.set(id, new MoneyDecimal(updated.rows[0]?.balance ?? "0").minus(change));
      }
      await tx.insert(postings).values(
        resolved.map((p) => {
          const after = (balances.get(p.accountId) ?? new MoneyDecimal(0)).plus(p.amount);
          balances.set(p.accountId, after);
          return {
            entryId: entry.id,
            accountId: p.accountId,
            currency: p.account.currency,
            amount: new MoneyDecimal(p.amount).toFixed(),
            balanceAfter: after.toFixed(),
          };
        }),
      );
      return { entryId: entry.id, applied: true };
    });
  } catch (error) {
    const pg = (error as { cause?: { code?: string } }).cause ?? (error as { code?: string });
    if (pg.code === CHECK_VIOLATION) {
      throw new AppError("INSUFFICIENT_BALANCE");
    }
    throw error;
  }
}

type BucketMove = { userId: number; book: Book; wallet: Wallet; currency: string; amount: string } & Omit<
  EntryInput,
  "postings"
>;

/** Moves an amount between a user's two buckets of one wallet and currency. */
function moveBetweenBuckets(db: DbOrTx, params: BucketMove, from: Bucket, to: Bucket) {
  const base = { userId: params.userId, book: params.book, wallet: params.wallet, currency: params.currency };
  return postEntry(db, {
    ...params,
    postings: [
      { account: { ...base, bucket: from }, amount: `-${params.amount}` },
      { account: { ...base, bucket: to }, amount: params.amount },
    ],
  });
}

/** Moves a user's funds from `available` to `held` (a freeze), e.g. for a withdrawal or an order. */
export function holdFunds(db: DbOrTx, params: BucketMove) {
  return moveBetweenBuckets(db, params, "available", "held");
}

/** Returns held funds to `available` (a release), e.g. when a withdrawal is rejected. */
export function releaseFunds(db: DbOrTx, params: BucketMove) {
  return moveBetweenBuckets(db, params, "held", "available");
}
