import { MoneyDecimal } from "@northstar/shared/money";
import { sql } from "drizzle-orm";
import { type DbOrTx, executePrepared, perHandle, type Tx } from "../db/client.ts";
import { AppError } from "../errors.ts";
import type { Book, Bucket, Wallet } from "./ledger.table.ts";
import { SYSTEM_RULE_CONSTRAINT, type SystemCode } from "./system-accounts.ts";

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
    const created = await executePrepared<{ id: number }>(
      db,
      sql`
      insert into ledger_accounts (user_id, book, wallet, currency, bucket)
      select user_id, book, wallet, currency, bucket from ${recordset} order by 1, 2, 3, 4, 5
      on conflict (user_id, book, wallet, currency, bucket) where user_id is not null do nothing
      returning id`,
    );
    fresh.push(...created.rows.map((r) => Number(r.id)));
    const found = await executePrepared<{
      id: number;
      user_id: number;
      book: Book;
      wallet: Wallet;
      currency: string;
      bucket: Bucket;
    }>(
      db,
      sql`
      select a.id, a.user_id, a.book, a.wallet, a.currency, a.bucket from ledger_accounts a
      join ${recordset} on a.user_id = v.user_id and a.book = v.book and a.wallet = v.wallet
        and a.currency = v.currency and a.bucket = v.bucket
      order by a.id`,
    );
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
    const created = await executePrepared<{ id: number }>(
      db,
      sql`
      insert into ledger_accounts (system_code, book, currency, bucket)
      select system_code, book, currency, 'available' from ${recordset} order by 1, 2, 3
      on conflict (system_code, book, currency) where system_code is not null do nothing
      returning id`,
    );
    fresh.push(...created.rows.map((r) => Number(r.id)));
    const found = await executePrepared<{
      id: number;
      system_code: SystemCode;
      book: Book;
      currency: string;
    }>(
      db,
      sql`
      select a.id, a.system_code, a.book, a.currency from ledger_accounts a
      join ${recordset} on a.system_code = v.system_code and a.book = v.book and a.currency = v.currency
      order by a.id`,
    );
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
 * the whole entry with INSUFFICIENT_BALANCE; a system account that would break its sign rule
 * (`SYSTEM_ACCOUNT_RULES`) with SYSTEM_ACCOUNT_RULE.
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
  // A savepoint when a transaction is open: a refusal undoes these entries alone.
  return db.transaction((tx) => postEntriesInTransaction(tx, inputs, cache));
}

/**
 * `postEntries` for a caller whose transaction is all or nothing (a refusal rolls the whole of it
 * back): the same rows, written straight in that transaction, without the savepoint that would let
 * the caller go on after a refusal. Two round trips fewer per call, for the hot paths that post in
 * every transaction (the spot order intake and the matcher).
 */
export async function postEntriesInTransaction(
  tx: Tx,
  inputs: EntryInput[],
  cache?: AccountIdCache,
): Promise<{ entryId: number; applied: boolean }[]> {
  if (inputs.length === 0) {
    return [];
  }
  const books = inputs.map(validate);
  return refusals(() => writeEntries(tx, inputs, books, cache));
}

/** Translates the database's refusals of a balance change into the domain's. */
async function refusals<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const pg =
      (error as { cause?: { code?: string; constraint?: string } }).cause ??
      (error as { code?: string; constraint?: string });
    // A system account would break its sign rule (system-accounts.ts): the platform's side cannot
    // give what it does not hold, whoever asked.
    if (pg.code === CHECK_VIOLATION && pg.constraint === SYSTEM_RULE_CONSTRAINT) {
      throw new AppError("SYSTEM_ACCOUNT_RULE");
    }
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

/**
 * Writes the entries, their balance changes and postings in one statement (once the accounts are
 * known): journal rows for the keys not used before (the first of a key repeated in the batch wins),
 * each account's net change applied with its row locked in account-id order (two writers touching the
 * same accounts cannot deadlock), and the postings in input order, each with the balance right after
 * it: the balance before the batch plus the running sum of the account's postings so far.
 */
async function writeEntries(
  tx: DbOrTx,
  inputs: EntryInput[],
  books: Book[],
  cache?: AccountIdCache,
): Promise<{ entryId: number; applied: boolean }[]> {
  // Keys repeated in the batch: only the first occurrence can apply.
  const first = new Map<string, number>();
  inputs.forEach((input, i) => {
    if (!first.has(input.idempotencyKey)) {
      first.set(input.idempotencyKey, i);
    }
  });
  const candidates = inputs.filter((input, i) => first.get(input.idempotencyKey) === i);
  const ids = await accountIds(
    tx,
    candidates.flatMap((input) => input.postings.map((p) => p.account)),
    cache,
  );
  // One JSON parameter per kind of row, whatever the batch size: cheaper to build and send than a
  // parameter per value.
  const entries = JSON.stringify(
    inputs.map((input, i) => ({
      ord: i,
      idempotency_key: input.idempotencyKey,
      book: books[i],
      kind: input.kind,
      reference_type: input.reference.type,
      reference_id: String(input.reference.id),
      memo: input.memo ?? null,
    })),
  );
  let n = 0;
  const postingRows = inputs.flatMap((input, i) =>
    first.get(input.idempotencyKey) === i
      ? input.postings.map((p) => ({
          e: i,
          n: n++,
          account_id: ids.get(refKey(p.account)) as number,
          currency: p.account.currency,
          amount: p.amount,
        }))
      : [],
  );
  const postings = JSON.stringify(postingRows);
  // The accounts again as a list: their rows are found through the primary key whatever the
  // planner thinks of the table's size (joined alone, a plan made while it was small scans it all).
  // Locking an account whose entry turns out to be a repeat is harmless: it changes by nothing.
  const accountList = `{${[...new Set(postingRows.map((p) => p.account_id))].sort((a, b) => a - b).join(",")}}`;
  const written = await executePrepared<{ ord: number; id: number | null }>(
    tx,
    sql`
    with v as materialized (
      select * from jsonb_to_recordset(${entries}::jsonb)
        as v(ord int, idempotency_key text, book text, kind text, reference_type text, reference_id text,
          memo text)),
    inserted as (
      insert into journal_entries (idempotency_key, book, kind, reference_type, reference_id, memo)
      select idempotency_key, book, kind, reference_type, reference_id, memo from v order by ord
      on conflict (idempotency_key) do nothing
      returning id, idempotency_key),
    fresh as materialized (
      select distinct on (v.idempotency_key) v.ord, inserted.id
      from v join inserted on inserted.idempotency_key = v.idempotency_key
      order by v.idempotency_key, v.ord),
    p as materialized (
      select p.*, fresh.id as entry_id
      from jsonb_to_recordset(${postings}::jsonb)
        as p(e int, n int, account_id bigint, currency text, amount numeric)
      join fresh on fresh.ord = p.e),
    net as materialized (select account_id, sum(amount) as change from p group by account_id),
    locked as materialized (
      select a.id from ledger_accounts a where a.id = any(${accountList}::bigint[]) order by a.id for update),
    updated as (
      update ledger_accounts a set balance = a.balance + net.change
      from net, locked
      where a.id = net.account_id and locked.id = a.id and a.id = any(${accountList}::bigint[])
      returning a.id, a.balance, net.change),
    posted as (
      insert into postings (entry_id, account_id, currency, amount, balance_after)
      select p.entry_id, p.account_id, p.currency, p.amount,
        u.balance - u.change + sum(p.amount) over (partition by p.account_id order by p.n)
      from p join updated u on u.id = p.account_id
      order by p.n
      returning 1)
    select v.ord, fresh.id from v left join fresh on fresh.ord = v.ord order by v.ord`,
  );
  const entryIds = new Map<string, number>();
  const fresh = new Set<number>();
  for (const row of written.rows) {
    if (row.id !== null) {
      const input = inputs[Number(row.ord)] as EntryInput;
      entryIds.set(input.idempotencyKey, Number(row.id));
      fresh.add(Number(row.ord));
    }
  }
  // Keys used before apply nothing and answer their entry, read in a snapshot of its own (a key a
  // concurrent transaction wrote is found once that transaction committed).
  const known = [...new Set(inputs.map((i) => i.idempotencyKey).filter((key) => !entryIds.has(key)))];
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
  return inputs.map((input, i) => ({
    entryId: Number(entryIds.get(input.idempotencyKey)),
    applied: fresh.has(i),
  }));
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
