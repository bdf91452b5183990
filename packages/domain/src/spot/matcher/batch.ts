import type { MarketTrade } from "@northstar/shared/markets";
import { SPOT_OPEN_STATUSES, spotOrderMachine } from "@northstar/shared/state-machines";
import { sql } from "drizzle-orm";
import { type Db, executePrepared, type Tx } from "../../db/client.ts";
import type { Book } from "../../ledger/index.ts";
import { type AccountIdCache, type EntryInput, postEntriesInTransaction } from "../../ledger/index.ts";
import { addMessages, type NewMessage } from "../../messages/index.ts";
import { transitionMany } from "../../state/index.ts";
import type { SpotCommand } from "../commands.ts";
import type { OrderBook } from "../engine/book.ts";
import type { FeeRates, LiveOrder, MarketInfo, PendingTrade } from "./settlement.ts";

export interface BookState {
  engine: OrderBook;
  /** The market maker's resting quotes (negative ids: they have no rows). */
  quotes: Set<number>;
}

export interface Market extends MarketInfo {
  tickSize: string;
  lotSize: string;
  minLots: number;
  books: Record<Book, BookState>;
  recentTrades: MarketTrade[];
}

export interface Entry {
  symbol: string;
  /** Stream id; null for an order found by the sweep (its command never arrived). */
  streamId: string | null;
  command: SpotCommand;
}

export interface QuoteRow {
  queue_seq: number;
  symbol: string;
  book: Book;
  side: "buy" | "sell";
  price: string;
  quantity: string;
}

/** What one batch changed, collected while the engine runs and written in one transaction. */
export class Batch {
  readonly touched = new Set<LiveOrder>();
  /** Books whose market-maker quotes changed (a new ladder, a fill): keyed `symbol book`. */
  readonly quoteBooks = new Map<string, { symbol: string; book: Book }>();
  /** The current quotes of `quoteBooks`, replacing what `spot_quotes` holds for them. */
  quoteRows: QuoteRow[] = [];
  readonly trades: PendingTrade[] = [];
  readonly releases: { order: LiveOrder; postings: EntryInput["postings"] }[] = [];
  readonly cursors = new Map<string, string>();
  readonly depthChanged = new Set<string>();
  constructor(
    readonly rates: FeeRates,
    readonly at: number,
  ) {}
}

/**
 * The message a batch's change of an order makes: one when it is filled, and one at its first partial
 * fill (resting, or a market order's rest cancelled), not one per fill or per batch, so a market
 * order sweeping 50 levels makes one message and a resting order filled bit by bit makes two at most.
 * The event keys keep it at that if a batch is written again. Demo-book practice makes none.
 */
function fillMessage(order: LiveOrder): NewMessage[] {
  const { row } = order;
  if (row.book !== "real" || order.filledQty.isZero()) {
    return [];
  }
  const status = order.status;
  const first = order.committedStatus === "pending" || order.committedStatus === "open";
  const kind = status === "filled" ? "spot.filled" : first ? "spot.partial" : null;
  if (!kind || order.committedStatus === status) {
    return [];
  }
  return [
    {
      userId: row.userId,
      kind,
      eventKey: `spot:order:${row.id}:${kind === "spot.filled" ? "filled" : "partial"}`,
      params: {
        side: row.side,
        symbol: row.symbol,
        base: row.base,
        quote: row.quote,
        filledQty: order.filledQty.toFixed(),
        filledQuote: order.filledQuote.toFixed(),
      },
    },
  ];
}

/**
 * Takes the batch's ended orders (open when last committed, ended now) off their users' open-order
 * counts (spot_open_order_counts, which the intake raises). Rows are locked in (user, market) order
 * before any ledger account, as the intake locks them, so the two never wait on each other in a circle.
 */
async function lowerOpenCounts(tx: Tx, batch: Batch): Promise<void> {
  const ended = new Map<string, { user_id: number; symbol: string; ended: number }>();
  for (const order of batch.touched) {
    if (SPOT_OPEN_STATUSES.includes(order.committedStatus) && !SPOT_OPEN_STATUSES.includes(order.status)) {
      const key = `${order.row.userId} ${order.row.symbol}`;
      const entry = ended.get(key) ?? { user_id: order.row.userId, symbol: order.row.symbol, ended: 0 };
      entry.ended++;
      ended.set(key, entry);
    }
  }
  if (ended.size === 0) {
    return;
  }
  const json = JSON.stringify([...ended.values()]);
  // The users again as a list, so the key finds their rows whatever the table's size was when the
  // statement's plan was made.
  const users = `{${[...new Set([...ended.values()].map((e) => e.user_id))].join(",")}}`;
  // Never below zero, and a missing row is left missing: an order that was never counted (a row no
  // intake wrote, which only a bug makes) must not stop its market; the spot ledger check reports
  // counts that differ from the orders.
  await executePrepared(
    tx,
    sql`
    with v as materialized (
      select * from jsonb_to_recordset(${json}::jsonb) as v(user_id bigint, symbol text, ended int)),
    locked as materialized (
      select c.user_id, c.symbol from spot_open_order_counts c
      join v on v.user_id = c.user_id and v.symbol = c.symbol
      where c.user_id = any(${users}::bigint[])
      order by c.user_id, c.symbol for update of c)
    update spot_open_order_counts c set open = greatest(c.open - v.ended, 0)
    from v, locked
    where c.user_id = v.user_id and c.symbol = v.symbol
      and locked.user_id = c.user_id and locked.symbol = c.symbol and c.user_id = any(${users}::bigint[])`,
  );
}

/**
 * Writes everything a batch changed in one transaction: the fills (with ids from the sequence), one
 * ledger entry per fill and per release, every touched order's state (compare-and-set on the state
 * the matcher last committed) and each market's stream cursor. The cursor update is itself a
 * compare-and-set, so a stale matcher that lost its lease cannot commit over its successor.
 */
export async function writeBatch(
  db: Db,
  batch: Batch,
  cursors: ReadonlyMap<string, string>,
  accountIds: AccountIdCache,
): Promise<void> {
  await db.transaction(async (tx) => {
    const entries: EntryInput[] = [];
    if (batch.trades.length > 0) {
      // One statement: ids from the sequence in the batch's order, the rows inserted with them.
      const rows = JSON.stringify(
        batch.trades.map((t, ord) => ({
          ord,
          symbol: t.symbol,
          book: t.book,
          price: t.price,
          quantity: t.quantity,
          quote_qty: t.quoteQty,
          taker_side: t.takerSide,
          maker_order_id: t.makerOrderId,
          taker_order_id: t.takerOrderId,
          maker_user_id: t.makerUserId,
          taker_user_id: t.takerUserId,
          maker_fee: t.makerFee,
          taker_fee: t.takerFee,
          value_usdt: t.valueUsdt,
          created_at: new Date(t.at).toISOString(),
        })),
      );
      const ids = await executePrepared<{ ord: number; id: number }>(
        tx,
        sql`
        with v as materialized (
          select nextval(pg_get_serial_sequence('spot_trades', 'id')) as id, r.*
          from (select * from jsonb_to_recordset(${rows}::jsonb) as v(ord int, symbol text, book text,
            price numeric, quantity numeric, quote_qty numeric, taker_side text, maker_order_id bigint,
            taker_order_id bigint, maker_user_id bigint, taker_user_id bigint, maker_fee numeric,
            taker_fee numeric, value_usdt numeric, created_at timestamptz) order by ord) as r),
        inserted as (
          insert into spot_trades (id, symbol, book, price, quantity, quote_qty, taker_side, maker_order_id,
            taker_order_id, maker_user_id, taker_user_id, maker_fee, taker_fee, value_usdt, created_at)
          select id, symbol, book, price, quantity, quote_qty, taker_side, maker_order_id, taker_order_id,
            maker_user_id, taker_user_id, maker_fee, taker_fee, value_usdt, created_at
          from v order by id)
        select ord, id from v order by ord`,
      );
      for (const row of ids.rows) {
        (batch.trades[Number(row.ord)] as PendingTrade).id = Number(row.id);
      }
      for (const trade of batch.trades) {
        entries.push({
          idempotencyKey: `spot:trade:${trade.id}`,
          kind: "spot.trade",
          reference: { type: "spot_trade", id: trade.id as number },
          postings: trade.postings,
        });
      }
    }
    await lowerOpenCounts(tx, batch);
    for (const { order, postings } of batch.releases) {
      entries.push({
        idempotencyKey: `spot:order:${order.row.id}:release`,
        kind: "spot.release",
        reference: { type: "spot_order", id: order.row.id },
        postings,
      });
    }
    await postEntriesInTransaction(tx, entries, accountIds);
    if (batch.quoteBooks.size > 0) {
      const books = JSON.stringify([...batch.quoteBooks.values()]);
      await tx.execute(sql`
        delete from spot_quotes q using jsonb_to_recordset(${books}::jsonb) as v(symbol text, book text)
        where q.symbol = v.symbol and q.book = v.book`);
      if (batch.quoteRows.length > 0) {
        await tx.execute(sql`
          insert into spot_quotes (queue_seq, symbol, book, side, price, quantity)
          select queue_seq, symbol, book, side, price, quantity
          from jsonb_to_recordset(${JSON.stringify(batch.quoteRows)}::jsonb)
            as v(queue_seq bigint, symbol text, book text, side text, price numeric, quantity numeric)`);
      }
    }
    const touched = [...batch.touched];
    const updated = await transitionMany(tx, {
      machine: spotOrderMachine,
      table: "spot_orders",
      by: "system",
      columns: {
        filled_qty: "numeric",
        filled_quote: "numeric",
        fee: "numeric",
        held: "numeric",
        cancel_reason: "text",
        queue_seq: "bigint",
      },
      rows: touched.map((o) => ({
        id: o.row.id,
        from: o.committedStatus,
        to: o.status,
        values: {
          filled_qty: o.filledQty.toFixed(),
          filled_quote: o.filledQuote.toFixed(),
          fee: o.fee.toFixed(),
          held: o.held.toFixed(),
          cancel_reason: o.cancelReason,
          queue_seq: o.queueSeq,
        },
      })),
    });
    if (updated.size !== touched.length) {
      throw new Error("spot matcher: an order changed under the matcher");
    }
    // Told with the fills themselves; the owners' badges follow the commit.
    await addMessages(tx, touched.flatMap(fillMessage));
    if (batch.cursors.size > 0) {
      const moves = JSON.stringify(
        [...batch.cursors].map(([symbol, lastId]) => ({
          symbol,
          last_id: lastId,
          previous: cursors.get(symbol) ?? "0-0",
        })),
      );
      const moved = await executePrepared(
        tx,
        sql`
        insert into spot_stream_cursors (symbol, last_id)
        select symbol, last_id from jsonb_to_recordset(${moves}::jsonb) as v(symbol text, last_id text)
        on conflict (symbol) do update set last_id = excluded.last_id, updated_at = now()
        where spot_stream_cursors.last_id = (
          select previous from jsonb_to_recordset(${moves}::jsonb) as m(symbol text, previous text)
          where m.symbol = excluded.symbol)
        returning symbol`,
      );
      if (moved.rows.length !== batch.cursors.size) {
        throw new Error("spot matcher: a stream cursor moved under the matcher");
      }
    }
  });
}
