import { sql } from "drizzle-orm";
import type { Redis } from "ioredis";
import { type Db, perHandle, type Tx } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { accountIdCache, type EntryInput, postEntries } from "../ledger/index.ts";
import { commandStream } from "./commands.ts";
import { answerFor, findResent, keyOf, recordedByKey } from "./order-keys.ts";
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
 * Records new orders with their holds, many per transaction (group commit): while one batch is
 * being written, the orders that arrive wait and go together in the next. One order alone goes at
 * once; under load a transaction carries dozens, which is what lets one API process take thousands
 * of orders a second. If a batch is refused (a user's balance does not cover their order), its
 * orders are written one by one, so only the order at fault is refused. After each commit the
 * orders' place commands go to the matcher's streams in one round trip.
 */
export class OrderIntake {
  private queue: Waiting[] = [];
  private writing = false;

  constructor(
    private readonly db: Db,
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  submit(order: NewOrder, maxOpen: number): Promise<SpotOrderRow> {
    return new Promise((resolve, reject) => {
      this.queue.push({ order, maxOpen, resolve, reject });
      if (!this.writing) {
        void this.drain();
      }
    });
  }

  private async drain(): Promise<void> {
    this.writing = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, MAX_BATCH);
        try {
          this.settle(batch, await this.write(batch));
        } catch (error) {
          if (batch.length === 1) {
            batch[0]?.reject(error);
            continue;
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
    } finally {
      this.writing = false;
    }
  }

  /**
   * Inserts the orders (ids taken first, so rows and holds pair up) and holds their funds. An order
   * that would pass its user's open-order limit is refused here, counted in the same transaction as
   * the insert, so orders arriving together, at this process or another, cannot slip past the limit.
   */
  private async write(batch: Waiting[]): Promise<(SpotOrderRow | AppError)[]> {
    const outcome = await this.db.transaction(async (tx) => {
      // A resent order (its client key already used) answers its first order; no count, row or hold.
      const resent = await findResent(
        tx,
        batch.map((w) => w.order),
      );
      const skip = new Set([...resent.answered.keys(), ...resent.sameAs.keys()]);
      const refused = await this.overLimit(tx, batch, skip);
      const fresh = batch.map((_, i) => i).filter((i) => !refused.has(i) && !skip.has(i));
      if (fresh.length === 0) {
        return { rows: new Map<number, SpotOrderRow>(), lost: [], refused, resent };
      }
      const ids = await tx.execute<{ id: number }>(
        sql`select nextval(pg_get_serial_sequence('spot_orders', 'id')) as id from generate_series(1, ${fresh.length}) order by 1`,
      );
      const withIds = fresh.map((index, i) => ({
        index,
        order: { ...(batch[index] as Waiting).order, id: Number(ids.rows[i]?.id) },
      }));
      // One JSON parameter for the whole batch: far cheaper to build than a parameter per value.
      const json = JSON.stringify(
        withIds.map(({ order: o }) => ({
          id: o.id,
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
        })),
      );
      // A key another process recorded meanwhile is skipped (the unique index waits for its commit).
      const inserted = await tx.execute<{ id: number; created_at: string }>(sql`
        insert into spot_orders (id, user_id, book, symbol, base, quote, side, type, time_in_force, price,
          quantity, quote_amount, fee_currency, hold_currency, held, client_key, request_hash)
        select id, user_id, book, symbol, base, quote, side, type, time_in_force, price,
          quantity, quote_amount, fee_currency, hold_currency, held, client_key, request_hash
        from jsonb_to_recordset(${json}::jsonb) as v(id bigint, user_id bigint, book text, symbol text,
          base text, quote text, side text, type text, time_in_force text, price numeric, quantity numeric,
          quote_amount numeric, fee_currency text, hold_currency text, held numeric, client_key text,
          request_hash text)
        on conflict (user_id, client_key) where client_key is not null do nothing
        returning id, created_at`);
      const createdAt = new Map(inserted.rows.map((r) => [Number(r.id), new Date(r.created_at)]));
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
      await postEntries(tx, [...rows.values()].map(holdEntry), accountIdCache(this.db));
      const lost = withIds.filter(({ order }) => !createdAt.has(order.id)).map(({ index }) => index);
      return { rows, lost, refused, resent };
    });
    const { rows, lost, refused, resent } = outcome;
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
    // Orders whose key another process recorded first answer that order, read after its commit.
    const lostTo = await recordedByKey(
      this.db,
      lost.map((i) => (batch[i] as Waiting).order),
    );
    const outcomes = batch.map((waiting, i): SpotOrderRow | AppError | undefined => {
      const key = keyOf(waiting.order);
      const first = lost.includes(i) && key ? lostTo.get(key) : undefined;
      return (
        refused.get(i) ??
        resent.answered.get(i) ??
        rows.get(i) ??
        (first ? answerFor(waiting.order, first) : undefined)
      );
    });
    for (const [i, earlier] of resent.sameAs) {
      const first = outcomes[earlier];
      outcomes[i] = first ? answerFor((batch[i] as Waiting).order, first) : undefined;
    }
    return outcomes.map((o) => o ?? new AppError("REQUEST_ERROR"));
  }

  /** The batch's orders (by index) that its users' open orders and earlier orders in it fill up. */
  private async overLimit(tx: Tx, batch: Waiting[], skip: Set<number>): Promise<Map<number, AppError>> {
    const unanswered = batch.filter((_, i) => !skip.has(i));
    if (unanswered.length === 0) {
      return new Map();
    }
    const pairs = JSON.stringify(
      unanswered.map((w) => ({ user_id: w.order.userId, symbol: w.order.symbol })),
    );
    // Other API processes record orders too: each (user, market) is counted under a lock held to the
    // commit, taken in one order (no deadlock) and in a statement of its own, so that the count's
    // snapshot, taken after the wait, sees what the previous holder committed.
    await tx.execute(sql`
      select pg_advisory_xact_lock(k) from (
        select distinct hashtextextended('spot-open:' || user_id || ':' || symbol, 0) as k
        from jsonb_to_recordset(${pairs}::jsonb) as v(user_id bigint, symbol text)
        order by k) as locks`);
    // One count per pair, each through the partial index (spot_orders_user_open_idx, whose status list
    // this repeats): a join here was planned as a scan of every open order of every user.
    const counted = await tx.execute<{ user_id: number; symbol: string; n: number }>(sql`
      select p.user_id, p.symbol, (
        select count(*)::int from spot_orders o
        where o.user_id = p.user_id and o.symbol = p.symbol and o.status in ('pending', 'open', 'partial')
      ) as n
      from (select distinct user_id, symbol
            from jsonb_to_recordset(${pairs}::jsonb) as v(user_id bigint, symbol text)) as p
      order by p.user_id, p.symbol`);
    const open = new Map(counted.rows.map((r) => [`${r.user_id}:${r.symbol}`, Number(r.n)]));
    const refused = new Map<number, AppError>();
    batch.forEach((waiting, i) => {
      if (skip.has(i)) {
        return;
      }
      const key = `${waiting.order.userId}:${waiting.order.symbol}`;
      const n = open.get(key) ?? 0;
      if (n >= waiting.maxOpen) {
        refused.set(i, new AppError("TOO_MANY_OPEN_ORDERS", { max: waiting.maxOpen }));
      } else {
        open.set(key, n + 1);
      }
    });
    return refused;
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
