import { MoneyDecimal } from "@northstar/shared/money";
import { mulberry32 } from "@northstar/shared/random";
import { SPOT_OPEN_STATUSES } from "@northstar/shared/state-machines";
import { sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import type { User } from "../identity/index.ts";
import { reconcileLedger } from "../ledger/index.ts";
import { cancelOrder } from "./cancel-order.ts";
import { type SpotCommand, sendCommand } from "./commands.ts";
import { placeOrder, type SpotDeps } from "./place-order.ts";
import { createTrader } from "./testing.ts";

/*
 * A seeded random trading session for the spot tests and benchmarks (never used by the product):
 * many traders sending limit orders around a price (a share of them crossing), market orders and
 * cancels of their own resting orders, through the same services as the API.
 */

export interface Workload {
  traders: User[];
  /** Every order placed, by id, with its owner. */
  orders: { id: number; user: User }[];
  refused: Record<string, number>;
}

export async function createTraders(
  db: Db,
  count: number,
  funds: Record<string, string> = { USDT: "1000000", BTC: "20", ETH: "300" },
): Promise<User[]> {
  const traders: User[] = [];
  for (let i = 0; i < count; i++) {
    traders.push(await createTrader(db, funds));
  }
  return traders;
}

/** A market the workload trades: its symbol, a middle price and its grid (tick and lot size). */
export interface WorkloadMarket {
  symbol: string;
  mid: number;
  tick: string;
  lot: string;
}

export const WORKLOAD_MARKETS: WorkloadMarket[] = [
  { symbol: "BTCUSDT", mid: 60000, tick: "0.01", lot: "0.00001" },
  { symbol: "ETHUSDT", mid: 3000, tick: "0.01", lot: "0.0001" },
];

/** Sends `commands` random orders and cancels, one after another, through placeOrder/cancelOrder. */
export async function runWorkload(
  deps: SpotDeps,
  traders: User[],
  commands: number,
  seed: number,
  options: {
    market?: boolean;
    /** Every this many commands, a market-maker ladder for each market (as the market maker sends). */
    quoteEvery?: number;
    /** The markets traded (BTCUSDT and ETHUSDT by default); the traders must hold their coins. */
    markets?: WorkloadMarket[];
  } = {},
): Promise<Workload> {
  const random = mulberry32(seed);
  const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)] as T;
  const markets = options.markets ?? WORKLOAD_MARKETS;
  const workload: Workload = { traders, orders: [], refused: {} };
  const open: { id: number; user: User }[] = [];
  for (let i = 0; i < commands; i++) {
    if (options.quoteEvery && i % options.quoteEvery === 0) {
      for (const market of markets) {
        await sendCommand(deps.redis, deps.prefix, market.symbol, ladder(market, random));
      }
    }
    const roll = random();
    try {
      if (roll < 0.25 && open.length > 0) {
        const index = Math.floor(random() * open.length);
        const [target] = open.splice(index, 1);
        if (target) {
          await cancelOrder(deps, target.user, target.id);
        }
        continue;
      }
      const market = pick(markets);
      const user = pick(traders);
      const side = random() < 0.5 ? "buy" : "sell";
      const lots = 1 + Math.floor(random() * 500);
      const quantity = new MoneyDecimal(market.lot).times(lots).toFixed();
      if (options.market !== false && roll > 0.93) {
        const order =
          side === "sell"
            ? await placeOrder(deps, user, {
                symbol: market.symbol,
                side,
                type: "market",
                time_in_force: "gtc",
                quantity,
              })
            : await placeOrder(deps, user, {
                symbol: market.symbol,
                side,
                type: "market",
                time_in_force: "gtc",
                quote_amount: new MoneyDecimal(market.mid).times(quantity).toFixed(2),
              });
        workload.orders.push({ id: order.id, user });
        continue;
      }
      // 30% cross the spread: priced through the middle; the rest rest within 1% of it.
      const crossing = random() < 0.3;
      const offset = Math.floor(random() * market.mid * 0.01 * 100) / 100;
      const away = crossing ? -offset : offset + 0.01;
      // On the market's grid (cents for the default markets).
      const price = new MoneyDecimal(side === "buy" ? market.mid - away : market.mid + away)
        .toNearest(market.tick, MoneyDecimal.ROUND_HALF_UP)
        .toFixed();
      const order = await placeOrder(deps, user, {
        symbol: market.symbol,
        side,
        type: "limit",
        time_in_force: random() < 0.1 ? "ioc" : "gtc",
        price,
        quantity,
      });
      workload.orders.push({ id: order.id, user });
      open.push({ id: order.id, user });
    } catch (error) {
      if (!(error instanceof AppError)) {
        throw error;
      }
      workload.refused[error.code] = (workload.refused[error.code] ?? 0) + 1;
    }
  }
  return workload;
}

/** Five levels a side, 0.1% apart around the middle, of random size: a market maker's ladder. */
function ladder(
  market: { mid: number; tick: string; lot: string },
  random: () => number,
): Extract<SpotCommand, { t: "quote" }> {
  const mid = Math.round(market.mid / Number(market.tick));
  const level = (i: number, side: 1 | -1): [number, number] => [
    mid + side * Math.round(mid * 0.001 * (i + 1)),
    1 + Math.floor(random() * 300),
  ];
  const levels = [0, 1, 2, 3, 4];
  return {
    t: "quote",
    book: "real",
    tick: market.tick,
    lot: market.lot,
    bids: levels.map((i) => level(i, -1)),
    asks: levels.map((i) => level(i, 1)),
  };
}

/**
 * The ledger's invariants after spot trading: reconciliation passes; no finished order holds
 * anything; each user's held balance per currency is exactly what their open orders hold; each
 * user's open-order count per market is their open orders; and every
 * currency's user and fee balances together equal what was granted (nothing made or lost).
 */
export async function checkSpotLedger(db: Db) {
  const report = await reconcileLedger(db);
  const leftovers = await db.execute<{ n: number }>(
    sql`select count(*)::int as n from spot_orders where held <> 0 and status not in ('pending', 'open', 'partial')`,
  );
  const open = SPOT_OPEN_STATUSES.map((s) => `'${s}'`).join(", ");
  const heldMismatch = await db.execute<{ user_id: number; currency: string }>(sql`
    with holds as (
      select user_id, book, hold_currency as currency, sum(held) as held
      from spot_orders where status in (${sql.raw(open)}) group by 1, 2, 3),
    accounts as (
      select user_id, book, currency, balance from ledger_accounts
      where user_id is not null and wallet = 'exchange' and bucket = 'held')
    select coalesce(h.user_id, a.user_id) as user_id, coalesce(h.currency, a.currency) as currency
    from holds h full join accounts a using (user_id, book, currency)
    where coalesce(h.held, 0) <> coalesce(a.balance, 0)
    order by 1, 2`);
  // The open-order counts the limit is checked against equal the open orders.
  const countMismatch = await db.execute<{ user_id: number; symbol: string }>(sql`
    with actual as (
      select user_id, symbol, count(*)::int as open from spot_orders
      where status in (${sql.raw(open)}) group by 1, 2)
    select coalesce(a.user_id, c.user_id) as user_id, coalesce(a.symbol, c.symbol) as symbol
    from actual a full join spot_open_order_counts c using (user_id, symbol)
    where coalesce(a.open, 0) <> coalesce(c.open, 0)
    order by 1, 2`);
  const totals = await db.execute<{ currency: string; users_and_fees: string; granted: string }>(sql`
    select currency,
      coalesce(sum(balance) filter (where user_id is not null or system_code in ('fees', 'market_maker')), 0)::text as users_and_fees,
      (-coalesce(sum(balance) filter (where system_code = 'house'), 0))::text as granted
    from ledger_accounts where book = 'real' group by currency order by currency`);
  return {
    reconciled: report.ok,
    finishedOrdersStillHolding: Number(leftovers.rows[0]?.n ?? 0),
    heldMismatches: heldMismatch.rows.length,
    openCountMismatches: countMismatch.rows.length,
    currenciesOutOfBalance: totals.rows
      .filter((r) => !new MoneyDecimal(r.users_and_fees).eq(r.granted))
      .map((r) => r.currency),
  };
}
