import { MoneyDecimal } from "@northstar/shared/money";
import { sql } from "drizzle-orm";
import { type DbOrTx, perHandle } from "../db/client.ts";
import { AppError } from "../errors.ts";
import type { Book, Bucket, Wallet } from "./ledger.table.ts";

/** System accounts hold the other side of user balances; clearing accounts are per channel. */
export type SystemCode =
  | "fees"
  | "house"
  | "yield_expense"
  | "loan_principal"
  | "demo_faucet"
  | "market_maker"
  | "options_house"
  | `deposit_clearing:${string}`
  | `withdrawal_clearing:${string}`
  | "earn_custody"
  | "earn_yield"
  | "launchpad_issuer"
  | "loans_pool"
  | "loan_interest"
  | "loan_late_fees"
  | `c2c_escrow:${string}`
  | `c2c_reserved:${string}`
  | "c2c_supply"
  | "contracts_house"
  | "contracts_insurance"
  | "marketing_budget"
  | "marketing_funding";

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
const NUMERIC_OUT_OF_RANGE = "22003";

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

/** Remembers account ids (they never change) so a busy caller resolves each account once. */
export type AccountIdCache = Map<string, number>;

/** The account-id cache of one database handle, for callers that post on every request. */
export const accountIdCache = perHandle((): AccountIdCache => new Map());

/**
 * Finds or creates the accounts the references name, in two statements per kind whatever their
 * number, and returns their ids by reference key.
 */
async function accountIds(
  db: DbOrTx,
  refs: AccountRef[],
  cache?: AccountIdCache,
): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  const fresh: number[] = [];
  const users = new Map<string, Record<string, unknown>>();
  const systems = new Map<string, Record<string, unknown>>();
  for (const ref of refs) {
    const key = refKey(ref);
    const known = cache?.get(key);
    if (known !== undefined) {
      ids.set(key, known);
    } else if ("system" in ref) {
      systems.set(key, { system_code: ref.system, book: ref.book, currency: ref.currency });
    } else {
      users.set(key, {
        user_id: ref.userId,
        book: ref.book,
        wallet: ref.wallet,
        currency: ref.currency,
        bucket: ref.bucket ?? "available",
      });
    }
  }
  if (users.size > 0) {
    const rows = JSON.stringify([...users.values()]);
    const recordset = sql`jsonb_to_recordset(${rows}::jsonb) as v(user_id bigint, book text, wallet text, currency text, bucket text)`;
    // An account another transaction is creating makes this insert wait for it, then skip it; the
    // next statement (a new snapshot) sees the row either way.
    const created = await db.execute<{ id: number }>(sql`
      insert into ledger_accounts (user_id, book, wallet, currency, bucket)
      select user_id, book, wallet, currency, bucket from ${recordset} order by 1, 2, 3, 4, 5
      on conflict (user_id, book, wallet, currency, bucket) where user_id is not null do nothing
      returning id`);
    fresh.push(...created.rows.map((r) => Number(r.id)));
    const found = await db.execute<{
      id: number;
      user_id: number;
      book: Book;
      wallet: Wallet;
      currency: string;
      bucket: Bucket;
    }>(sql`
      select a.id, a.user_id, a.book, a.wallet, a.currency, a.bucket from ledger_accounts a
      join ${recordset} on a.user_id = v.user_id and a.book = v.book and a.wallet = v.wallet
        and a.currency = v.currency and a.bucket = v.bucket
      order by a.id`);
    for (const row of found.rows) {
      const key = refKey({
        userId: Number(row.user_id),
        book: row.book,
        wallet: row.wallet,
        currency: row.currency,
        bucket: row.bucket,
      });
      ids.set(key, Number(row.id));
    }
  }
  if (systems.size > 0) {
    const rows = JSON.stringify([...systems.values()]);
    const recordset = sql`jsonb_to_recordset(${rows}::jsonb) as v(system_code text, book text, currency text)`;
    const created = await db.execute<{ id: number }>(sql`
      insert into ledger_accounts (system_code, book, currency, bucket)
      select system_code, book, currency, 'available' from ${recordset} order by 1, 2, 3
      on conflict (system_code, book, currency) where system_code is not null do nothing
      returning id`);
    fresh.push(...created.rows.map((r) => Number(r.id)));
    const found = await db.execute<{ id: number; system_code: SystemCode; book: Book; currency: string }>(sql`
      select a.id, a.system_code, a.book, a.currency from ledger_accounts a
      join ${recordset} on a.system_code = v.system_code and a.book = v.book and a.currency = v.currency
      order by a.id`);
    for (const row of found.rows) {
      const key = refKey({ system: row.system_code, book: row.book, currency: row.currency });
      ids.set(key, Number(row.id));
    }
  }
  // Accounts this transaction created may still roll back with it: only those that existed before
  // are remembered (a new one is, the next time it is used).
  for (const [key, id] of ids) {
    if (!fresh.includes(id)) {
      cache?.set(key, id);
    }
  }
  for (const ref of refs) {
    if (!ids.has(refKey(ref))) {
      throw new Error(`ledger account not found or created: ${refKey(ref)}`);
    }
  }
  return ids;
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
  cache?: AccountIdCache,
): Promise<{ entryId: number; applied: boolean }> {
  const [result] = await postEntries(db, [input], cache);
  if (!result) {
    throw new Error(`ledger entry ${input.idempotencyKey}: not written`);
  }
  return result;
}

/**
 * Many entries at once, all or nothing, in a fixed number of statements: what a busy writer (the
 * spot matcher settling a batch of fills) needs. Same rules as `postEntry` for each entry; an entry
 * whose key was used before is skipped. `cache` keeps account ids between calls.
 */
export async function postEntries(
  db: DbOrTx,
  inputs: EntryInput[],
  cache?: AccountIdCache,
): Promise<{ entryId: number; applied: boolean }[]> {
  if (inputs.length === 0) {
    return [];
  }
  const books = inputs.map(validate);
  try {
    return await db.transaction(async (tx) => {
      const entryIds = new Map<string, number>();
      // One JSON parameter per statement, whatever the batch size: cheaper to build and send than
      // a parameter per value.
      const entries = JSON.stringify(
        inputs.map((input, i) => ({
          idempotency_key: input.idempotencyKey,
          book: books[i],
          kind: input.kind,
          reference_type: input.reference.type,
          reference_id: String(input.reference.id),
          memo: input.memo ?? null,
        })),
      );
      const inserted = await tx.execute<{ id: number; idempotency_key: string }>(sql`
        insert into journal_entries (idempotency_key, book, kind, reference_type, reference_id, memo)
        select idempotency_key, book, kind, reference_type, reference_id, memo
        from jsonb_to_recordset(${entries}::jsonb)
          as v(idempotency_key text, book text, kind text, reference_type text, reference_id text, memo text)
        on conflict (idempotency_key) do nothing
        returning id, idempotency_key`);
      for (const row of inserted.rows) {
        entryIds.set(row.idempotency_key, Number(row.id));
      }
      // Keys used before (or twice in this batch: the first one wins) apply nothing.
      const fresh = new Set<EntryInput>();
      const claimed = new Set<string>();
      for (const input of inputs) {
        if (entryIds.has(input.idempotencyKey) && !claimed.has(input.idempotencyKey)) {
          claimed.add(input.idempotencyKey);
          fresh.add(input);
        }
      }
      const known = inputs.filter((i) => !entryIds.has(i.idempotencyKey)).map((i) => i.idempotencyKey);
      if (known.length > 0) {
        const existing = await tx.execute<{ id: number; idempotency_key: string }>(
          sql`select id, idempotency_key from journal_entries
              where idempotency_key in (select jsonb_array_elements_text(${JSON.stringify(known)}::jsonb))
              order by id`,
        );
        for (const row of existing.rows) {
          entryIds.set(row.idempotency_key, Number(row.id));
        }
      }
      const results = inputs.map((input) => ({
        entryId: Number(entryIds.get(input.idempotencyKey)),
        applied: fresh.has(input),
      }));
      if (fresh.size === 0) {
        return results;
      }

      const allPostings = [...fresh].flatMap((input) => input.postings);
      const ids = await accountIds(
        tx,
        allPostings.map((p) => p.account),
        cache,
      );
      const net = new Map<number, InstanceType<typeof MoneyDecimal>>();
      for (const p of allPostings) {
        const id = ids.get(refKey(p.account)) as number;
        net.set(id, (net.get(id) ?? new MoneyDecimal(0)).plus(p.amount));
      }
      // Rows are locked in account-id order (the materialised, sorted CTE), so two writers touching
      // the same accounts cannot deadlock; the same statement applies every net change.
      const changes = [...net.entries()].sort((a, b) => a[0] - b[0]);
      const values = JSON.stringify(changes.map(([id, change]) => ({ id, change: change.toFixed() })));
      const updated = await tx.execute<{ id: number; balance: string }>(sql`
        with v as materialized (
          select * from jsonb_to_recordset(${values}::jsonb) as v(id bigint, change numeric)),
        locked as materialized (
          select a.id from ledger_accounts a where a.id in (select id from v) order by a.id for update)
        update ledger_accounts a set balance = a.balance + v.change
        from v, locked
        where a.id = v.id and locked.id = a.id
        returning a.id, a.balance`);
      // Start from each balance before this batch, then replay the postings for balance_after.
      const balances = new Map<number, InstanceType<typeof MoneyDecimal>>();
      for (const row of updated.rows) {
        const id = Number(row.id);
        balances.set(id, new MoneyDecimal(row.balance).minus(net.get(id) ?? 0));
      }
      const rows = [...fresh].flatMap((input) =>
        input.postings.map((p) => {
          const accountId = ids.get(refKey(p.account)) as number;
          const after = (balances.get(accountId) ?? new MoneyDecimal(0)).plus(p.amount);
          balances.set(accountId, after);
          return {
            entry_id: entryIds.get(input.idempotencyKey) as number,
            account_id: accountId,
            currency: p.account.currency,
            amount: new MoneyDecimal(p.amount).toFixed(),
            balance_after: after.toFixed(),
          };
        }),
      );
      await tx.execute(sql`
        insert into postings (entry_id, account_id, currency, amount, balance_after)
        select entry_id, account_id, currency, amount, balance_after
        from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
          as v(entry_id bigint, account_id bigint, currency text, amount numeric, balance_after numeric)`);
      return results;
    });
  } catch (error) {
    const pg = (error as { cause?: { code?: string } }).cause ?? (error as { code?: string });
    if (pg.code === CHECK_VIOLATION) {
      throw new AppError("INSUFFICIENT_BALANCE");
    }
    // A balance pushed past what NUMERIC(38,18) holds: a refusal, not a server fault.
    if (pg.code === NUMERIC_OUT_OF_RANGE) {
      throw new AppError("AMOUNT_TOO_LARGE", {}, "amount");
    }
    throw error;
  }
}

type BucketMove = {
  userId: number;
  book: Book;
  wallet: Wallet;
  currency: string;
  amount: string;
  cache?: AccountIdCache;
} & Omit<EntryInput, "postings">;

/** Moves an amount between a user's two buckets of one wallet and currency. */
function moveBetweenBuckets(db: DbOrTx, params: BucketMove, from: Bucket, to: Bucket) {
  const { userId, book, wallet, currency, amount, cache, ...entry } = params;
  const base = { userId, book, wallet, currency };
  return postEntry(
    db,
    {
      ...entry,
      postings: [
        { account: { ...base, bucket: from }, amount: `-${amount}` },
        { account: { ...base, bucket: to }, amount },
      ],
    },
    cache,
  );
}

/** Moves a user's funds from `available` to `held` (a freeze), e.g. for a withdrawal or an order. */
export function holdFunds(db: DbOrTx, params: BucketMove) {
  return moveBetweenBuckets(db, params, "available", "held");
}

/** Returns held funds to `available` (a release), e.g. when a withdrawal is rejected. */
export function releaseFunds(db: DbOrTx, params: BucketMove) {
  return moveBetweenBuckets(db, params, "held", "available");
}
