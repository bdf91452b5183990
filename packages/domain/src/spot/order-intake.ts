import { sql } from "drizzle-orm";
import type { Redis } from "ioredis";
import { type Db, executePrepared, perHandle, type Tx } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { accountIdCache, type EntryInput, postEntriesInTransaction } from "../ledger/index.ts";
import { commandStream } from "./commands.ts";
import { answerFor, keyOf, recordedByKey, repeatsInBatch, textArray } from "./order-keys.ts";
import type { SpotOrderRow } from "./order-view.ts";
import type { spotOrders } from "./spot.table.ts";

/** An order checked and priced, ready to be recorded with its hold. */
export type NewOrder = Omit<typeof spotOrders.$inferInsert, "id">;

interface Waiting {
  order: NewOrder;
  /** The most open orders its user may have in its market, this one included. */
  maxOpen: number;
  resolve: (row: SpotOrderRow) => void;
  reject: (error: unknown) => void;
}

const MAX_BATCH = 256;
/** The most (user, market) pairs an intake remembers as having their count row. */
const COUNTED_KEPT = 100_000;
/**
 * Batches a process writes at once. One: the orders that arrive while it is written wait for the next,
 * so under load batches are twice as large as with two in flight, for the same throughput and latency
 * (`pnpm bench spot-api`, closed loop on two cores: 0.57 statements per order instead of 0.77, CPU
 * per order −6%). Other API processes write their batches beside it: orders of one user and market
 * in two batches are kept apart by the lock on their open-order count row, and balances by row locks
 * taken in account order, so concurrent batches never deadlock.
 */
const IN_FLIGHT = 1;

const holdEntry = (row: SpotOrderRow): EntryInput => {
  const account = {
    userId: row.userId,
    book: row.book,
    wallet: "exchange" as const,
    currency: row.holdCurrency,
  };
  return {
    idempotencyKey: `spot:order:${row.id}:hold`,
    kind: "spot.hold",
    reference: { type: "spot_order", id: row.id },
    postings: [
      { account: { ...account, bucket: "available" }, amount: `-${row.held}` },
      { account: { ...account, bucket: "held" }, amount: row.held },
    ],
  };
};

/**
 * How many of the waiting orders go in the next batch: up to MAX_BATCH, stopping before an order
 * whose user and market already have one in the batch under another open-order limit (a policy
 * change between the two), so that one limit applies to each user and market of a batch.
 */
function batchLength(queue: Waiting[]): number {
  const limits = new Map<string, number>();
  const end = Math.min(queue.length, MAX_BATCH);
  for (let i = 0; i < end; i++) {
    const { order, maxOpen } = queue[i] as Waiting;
    const key = `${order.userId}:${order.symbol}`;
    const limit = limits.get(key);
    if (limit !== undefined && limit !== maxOpen) {
      return i;
    }
    limits.set(key, maxOpen);
  }
  return end;
}

/** The (user, market) pairs of `orders`, each once. */
function countPairs(orders: NewOrder[]): { user_id: number; symbol: string }[] {
  const pairs = new Map<string, { user_id: number; symbol: string }>();
  for (const o of orders) {
    pairs.set(`${o.userId}:${o.symbol}`, { user_id: o.userId, symbol: o.symbol });
  }
  return [...pairs.values()];
}

/**
 * Makes sure each pair has its row of spot_open_order_counts before the batch's statement locks the
 * rows: a row that does not exist yet cannot be locked, and two batches could then both count a
 * user's first orders in a market from zero. Created in (user, market) order like every lock on
 * the table; a batch creating the same row waits here for this one's commit, before it locks any
 * other row. Rows are never deleted, so a process asks once per pair (see OrderIntake.counted).
 */
async function ensureCountRows(tx: Tx, pairs: { user_id: number; symbol: string }[]): Promise<void> {
  await executePrepared(
    tx,
    sql`
    insert into spot_open_order_counts (user_id, symbol, open)
    select user_id, symbol, 0 from jsonb_to_recordset(${JSON.stringify(pairs)}::jsonb)
      as p(user_id bigint, symbol text)
    order by user_id, symbol
    on conflict (user_id, symbol) do nothing`,
  );
}

/**
 * Records new orders with their holds, many per transaction (group commit): while a batch is being
 * written, the orders that arrive wait and go together in the next; up to IN_FLIGHT batches are
 * written at once. One order alone goes at once; under load a transaction carries dozens, which is
 * what lets one API process take thousands of orders a second. If a batch is refused (a user's balance does not cover their order), its
 * orders are written one by one, so only the order at fault is refused. After each commit the
 * orders' place commands go to the matcher's streams in one round trip.
 */
export class OrderIntake {
  private queue: Waiting[] = [];
  private inFlight = 0;
  /**
   * (user, market) pairs known to have their open-order count row ("user:symbol"); forgotten past
   * COUNTED_KEPT pairs, which only means asking again.
   */
  private readonly counted = new Set<string>();

  constructor(
    private readonly db: Db,
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  submit(order: NewOrder, maxOpen: number): Promise<SpotOrderRow> {
    return new Promise((resolve, reject) => {
      this.queue.push({ order, maxOpen, resolve, reject });
      this.drain();
    });
  }

  /** Starts batches while orders wait and fewer than IN_FLIGHT are being written. */
  private drain(): void {
    while (this.queue.length > 0 && this.inFlight < IN_FLIGHT) {
      const batch = this.queue.splice(0, batchLength(this.queue));
      this.inFlight++;
      void this.writeAll(batch).finally(() => {
        this.inFlight--;
        this.drain();
      });
    }
  }

  private async writeAll(batch: Waiting[]): Promise<void> {
    try {
      this.settle(batch, await this.write(batch));
    } catch (error) {
      if (batch.length === 1) {
        batch[0]?.reject(error);
        return;
      }
      for (const waiting of batch) {
        try {
          this.settle([waiting], await this.write([waiting]));
        } catch (single) {
          waiting.reject(single);
        }
      }
    }
  }

  /**
   * Inserts the orders (ids taken first, so rows and holds pair up) and holds their funds. An order
   * that would pass its user's open-order limit is refused here, counted in the same transaction as
   * the insert, so orders arriving together, at this process or another, cannot slip past the limit.
   * An order resending one already recorded (its client key used) is answered with that order after
   * the commit; it is not counted, recorded or held again.
   */
  private async write(batch: Waiting[]): Promise<(SpotOrderRow | AppError)[]> {
    // A key repeated in the batch: the later orders answer the first.
    const sameAs = repeatsInBatch(batch.map((w) => w.order));
    const unanswered = batch.map((_, i) => i).filter((i) => !sameAs.has(i));
    const pairs = countPairs(unanswered.map((i) => (batch[i] as Waiting).order));
    const uncounted = pairs.filter((p) => !this.counted.has(`${p.user_id}:${p.symbol}`));
    const outcome = await this.db.transaction(async (tx) => {
      if (uncounted.length > 0) {
        await ensureCountRows(tx, uncounted);
      }
      // One JSON parameter for the whole batch: far cheaper to build than a parameter per value.
      const json = JSON.stringify(
        unanswered.map((index) => {
          const { order: o, maxOpen } = batch[index] as Waiting;
          return {
            i: index,
            max_open: maxOpen,
            user_id: o.userId,
            book: o.book,
            symbol: o.symbol,
            base: o.base,
            quote: o.quote,
            side: o.side,
            type: o.type,
            time_in_force: o.timeInForce,
            price: o.price ?? null,
            quantity: o.quantity ?? null,
            quote_amount: o.quoteAmount ?? null,
            fee_currency: o.feeCurrency,
            hold_currency: o.holdCurrency,
            held: o.held,
            client_key: o.clientKey ?? null,
            request_hash: o.requestHash ?? null,
          };
        }),
      );
      const keyed = unanswered.filter((i) => (batch[i] as Waiting).order.clientKey);
      const keyedOrder = (i: number) => (batch[i] as Waiting).order;
      // In one statement: the orders whose key is already recorded (`known`, one probe of the unique
      // (user, key) index each), each (user, market)'s open orders with its count row locked in
      // (user, market) order, as the matcher locks them, before any ledger account (the lock waits
      // for a batch writing the row and reads what it committed), the batch's other orders within
      // the limit given ids in batch order, those inserted, and the counts raised by what was
      // inserted. A key another process recorded meanwhile is skipped (the unique index waits for
      // its commit): its order has an id but no created_at. The users again as a list: their rows
      // are found by the key whatever the table's size was when this statement's plan was made.
      const users = `{${pairs.map((p) => p.user_id).join(",")}}`;
      const written = await executePrepared<{
        i: number;
        id: number | null;
        created_at: string | null;
        known: boolean;
      }>(
        tx,
        sql`
        with v as materialized (
          select * from jsonb_to_recordset(${json}::jsonb) as v(i int, max_open int, user_id bigint,
            book text, symbol text, base text, quote text, side text, type text, time_in_force text,
            price numeric, quantity numeric, quote_amount numeric, fee_currency text, hold_currency text,
            held numeric, client_key text, request_hash text)),
        known as materialized (
          select k.i from unnest(${`{${keyed.join(",")}}`}::int[],
            ${`{${keyed.map((i) => keyedOrder(i).userId).join(",")}}`}::bigint[],
            ${textArray(keyed.map((i) => keyedOrder(i).clientKey as string))}::text[]) as k(i, user_id, client_key)
          join spot_orders o on o.user_id = k.user_id and o.client_key = k.client_key),
        locked as materialized (
          select c.user_id, c.symbol, c.open from spot_open_order_counts c
          where c.user_id = any(${users}::bigint[])
            and (c.user_id, c.symbol) in (select user_id, symbol from v)
          order by c.user_id, c.symbol
          for update of c),
        ranked as materialized (
          select v.*,
            coalesce(l.open, 0) + row_number() over (partition by v.user_id, v.symbol order by v.i) as nth
          from v left join locked l on l.user_id = v.user_id and l.symbol = v.symbol
          where v.i not in (select i from known)),
        chosen as materialized (
          select nextval(pg_get_serial_sequence('spot_orders', 'id')) as id, r.*
          from (select * from ranked where nth <= max_open order by i) as r),
        inserted as (
          insert into spot_orders (id, user_id, book, symbol, base, quote, side, type, time_in_force, price,
            quantity, quote_amount, fee_currency, hold_currency, held, client_key, request_hash)
          select id, user_id, book, symbol, base, quote, side, type, time_in_force, price,
            quantity, quote_amount, fee_currency, hold_currency, held, client_key, request_hash
          from chosen order by id
          on conflict (user_id, client_key) where client_key is not null do nothing
          returning id, created_at, user_id, symbol),
        raised as (
          insert into spot_open_order_counts (user_id, symbol, open)
          select user_id, symbol, count(*)::int from inserted group by user_id, symbol order by user_id, symbol
          on conflict (user_id, symbol) do update set open = spot_open_order_counts.open + excluded.open)
        select v.i, c.id, ins.created_at, v.i in (select i from known) as known
        from v left join chosen c on c.i = v.i left join inserted ins on ins.id = c.id
        order by v.i`,
      );
      const refused = new Map<number, AppError>();
      const withIds: { index: number; order: NewOrder & { id: number } }[] = [];
      const createdAt = new Map<number, Date>();
      const known: number[] = [];
      for (const row of written.rows) {
        const index = Number(row.i);
        const waiting = batch[index] as Waiting;
        if (row.known) {
          known.push(index);
          continue;
        }
        if (row.id === null) {
          refused.set(index, new AppError("TOO_MANY_OPEN_ORDERS", { max: waiting.maxOpen }));
          continue;
        }
        withIds.push({ index, order: { ...waiting.order, id: Number(row.id) } });
        if (row.created_at !== null) {
          createdAt.set(Number(row.id), new Date(row.created_at));
        }
      }
      const rows = new Map<number, SpotOrderRow>();
      for (const { index, order: o } of withIds) {
        const at = createdAt.get(o.id);
        if (at) {
          rows.set(index, {
            ...o,
            price: o.price ?? null,
            quantity: o.quantity ?? null,
            quoteAmount: o.quoteAmount ?? null,
            clientKey: o.clientKey ?? null,
            requestHash: o.requestHash ?? null,
            filledQty: "0",
            filledQuote: "0",
            fee: "0",
            status: "pending",
            cancelReason: null,
            queueSeq: null,
            createdAt: at,
            updatedAt: at,
          });
        }
      }
      await postEntriesInTransaction(tx, [...rows.values()].map(holdEntry), accountIdCache(this.db));
      // Resent orders, and orders whose key another process recorded first, answer that order.
      const lost = [
        ...known,
        ...withIds.filter(({ order }) => !createdAt.has(order.id)).map(({ index }) => index),
      ];
      return { rows, lost, refused };
    });
    const { rows, lost, refused } = outcome;
    if (this.counted.size + uncounted.length > COUNTED_KEPT) {
      this.counted.clear();
    }
    for (const p of uncounted) {
      this.counted.add(`${p.user_id}:${p.symbol}`);
    }
    // After the commit: the matcher must never see an order that might still roll back. If this
    // append is lost, the matcher's sweep finds the pending orders in the database.
    const pipeline = this.redis.pipeline();
    for (const row of rows.values()) {
      pipeline.xadd(
        commandStream(this.prefix, row.symbol),
        "*",
        "c",
        JSON.stringify({ t: "place", id: row.id }),
      );
    }
    await pipeline.exec().catch(() => {});
    // Read after the commit: the first order of a key another process was recording is then found.
    const lostTo = await recordedByKey(
      this.db,
      lost.map((i) => (batch[i] as Waiting).order),
    );
    const answered = new Set(lost);
    const outcomes = batch.map((waiting, i): SpotOrderRow | AppError | undefined => {
      const key = keyOf(waiting.order);
      const first = answered.has(i) && key ? lostTo.get(key) : undefined;
      return refused.get(i) ?? rows.get(i) ?? (first ? answerFor(waiting.order, first) : undefined);
    });
    for (const [i, earlier] of sameAs) {
      const first = outcomes[earlier];
      outcomes[i] = first ? answerFor((batch[i] as Waiting).order, first) : undefined;
    }
    return outcomes.map((o) => o ?? new AppError("REQUEST_ERROR"));
  }

  private settle(batch: Waiting[], outcomes: (SpotOrderRow | AppError)[]) {
    batch.forEach((waiting, i) => {
      const outcome = outcomes[i];
      if (outcome instanceof AppError) {
        waiting.reject(outcome);
      } else if (outcome) {
        waiting.resolve(outcome);
      } else {
        waiting.reject(new AppError("REQUEST_ERROR"));
      }
    });
  }
}

const intakes = perHandle((): { current?: OrderIntake } => ({}));
/** The intake of one database handle (one per API process). */
export function orderIntake(db: Db, redis: Redis, prefix: string): OrderIntake {
  const slot = intakes(db);
  slot.current ??= new OrderIntake(db, redis, prefix);
  return slot.current;
}
