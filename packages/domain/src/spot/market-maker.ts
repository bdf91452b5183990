import { hasSpotMarket } from "@northstar/shared/markets";
import { MoneyDecimal } from "@northstar/shared/money";
import type { PolicyValue } from "@northstar/shared/policy";
import type { Redis } from "ioredis";
import type { Db } from "../db/client.ts";
import { BOOKS } from "../ledger/index.ts";
import { type InstrumentView, loadCatalogue, readTickers } from "../markets/index.ts";
import { getPolicy } from "../policy/index.ts";
import { commandStream, type SpotCommand } from "./commands.ts";
import { spotPolicy } from "./terms.ts";

type Settings = PolicyValue<"spot.marketMaker">;
type Ladder = Pick<Extract<SpotCommand, { t: "quote" }>, "bids" | "asks">;

/**
 * The market maker's ladder around a price, in ticks and lots: level i sits `spread + i × step`
 * away from the price (bids rounded down, asks up, never two levels on one tick), each worth about
 * `levelNotionalUsdt` and at least the market's minimum quantity.
 */
export function quoteLadder(
  price: string,
  market: { tickSize: string; lotSize: string; minQty: string },
  settings: Settings,
): Ladder {
  const mid = new MoneyDecimal(price);
  const tick = new MoneyDecimal(market.tickSize);
  const lot = new MoneyDecimal(market.lotSize);
  const minLots = MoneyDecimal.max(1, new MoneyDecimal(market.minQty).div(lot).ceil());
  const lotsAt = (ticks: number) =>
    MoneyDecimal.max(
      minLots,
      new MoneyDecimal(settings.levelNotionalUsdt).div(tick.times(ticks).times(lot)).floor(),
    ).toNumber();
  const bids: [number, number][] = [];
  const asks: [number, number][] = [];
  for (let i = 0; i < settings.levels; i++) {
    const away = new MoneyDecimal(settings.spread).plus(new MoneyDecimal(settings.step).times(i));
    let bid = mid.times(new MoneyDecimal(1).minus(away)).div(tick).floor().toNumber();
    let ask = mid.times(away.plus(1)).div(tick).ceil().toNumber();
    const lastBid = bids.at(-1)?.[0];
    const lastAsk = asks.at(-1)?.[0];
    bid = lastBid === undefined ? bid : Math.min(bid, lastBid - 1);
    ask = lastAsk === undefined ? ask : Math.max(ask, lastAsk + 1);
    if (bid > 0) {
      bids.push([bid, lotsAt(bid)]);
    }
    asks.push([ask, lotsAt(ask)]);
  }
  return { bids, asks };
}

/**
 * Keeps the market maker's quotes on both sides of every spot market, in the real and the demo
 * book, around the feed's last price: a new ladder whenever the price moved, and at least every ten
 * refreshes so a restarted matcher gets quotes again soon. While a market's last feed price is
 * older than `spot.maxTickAgeMs` it quotes nothing there: an empty ladder pulls its resting orders,
 * and it quotes again with the next fresh price. It sends commands; the matcher applies them.
 */
export class MarketMaker {
  private timer: ReturnType<typeof setInterval> | null = null;
  /** What each market was last sent: a ladder around `price`, or nothing (`pulled`) while stale. */
  private readonly quoted = new Map<string, { price: string; at: number; pulled?: boolean }>();
  private markets: { at: number; list: InstrumentView[] } = { at: 0, list: [] };
  private busy = false;

  constructor(
    private readonly options: {
      db: Db;
      redis: Redis;
      prefix: string;
      log?: (line: string) => void;
      /** The time in ms; tests pass their clock. */
      now?: () => number;
    },
  ) {}

  async start(): Promise<void> {
    const { refreshMs } = await spotPolicy(this.options.db).then((p) => p["spot.marketMaker"]);
    await this.refresh();
    this.timer = setInterval(() => void this.refresh(), refreshMs);
  }

  async stop(): Promise<void> {
    if (this.timer) {
      clearInterval(this.timer);
    }
    this.timer = null;
  }

  /** One round: a ladder for every market whose price moved. */
  async refresh(): Promise<void> {
    if (this.busy) {
      return;
    }
    this.busy = true;
    try {
      const { db, redis, prefix } = this.options;
      const settings = (await spotPolicy(db))["spot.marketMaker"];
      if (!settings.enabled) {
        return;
      }
      // As often as the matcher reads the catalogue: a ladder on an old grid would be dropped.
      if (Date.now() - this.markets.at > 10_000) {
        this.markets = {
          at: Date.now(),
          list: (await loadCatalogue(db)).filter(hasSpotMarket),
        };
      }
      const tickers = await readTickers(redis, prefix);
      const maxAge = await getPolicy(db, "spot.maxTickAgeMs");
      const pipeline = redis.pipeline();
      const now = this.options.now?.() ?? Date.now();
      for (const market of this.markets.list) {
        const ticker = tickers.get(market.symbol);
        const last = this.quoted.get(market.symbol);
        if (ticker && now - ticker.t > maxAge) {
          if (!last?.pulled) {
            for (const book of BOOKS) {
              const pull: SpotCommand = {
                t: "quote",
                book,
                tick: market.tickSize,
                lot: market.lotSize,
                bids: [],
                asks: [],
              };
              pipeline.xadd(commandStream(prefix, market.symbol), "*", "c", JSON.stringify(pull));
            }
            this.quoted.set(market.symbol, { price: ticker.p, at: now, pulled: true });
          }
          continue;
        }
        if (!ticker?.x) {
          continue;
        }
        if (last && !last.pulled && last.price === ticker.p && now - last.at < settings.refreshMs * 10) {
          continue;
        }
        const ladder = quoteLadder(ticker.p, market, settings);
        for (const book of BOOKS) {
          const command: SpotCommand = {
            t: "quote",
            book,
            tick: market.tickSize,
            lot: market.lotSize,
            ...ladder,
          };
          pipeline.xadd(commandStream(prefix, market.symbol), "*", "c", JSON.stringify(command));
        }
        this.quoted.set(market.symbol, { price: ticker.p, at: now });
      }
      await pipeline.exec();
    } catch (error) {
      this.options.log?.(`market maker: ${(error as Error).message}`);
    } finally {
      this.busy = false;
    }
  }
}
