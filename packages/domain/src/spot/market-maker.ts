import { hasSpotMarket } from "@northstar/shared/markets";
import { MoneyDecimal } from "@northstar/shared/money";
import type { PolicyValue } from "@northstar/shared/policy";
import type { Redis } from "ioredis";
import type { Db } from "../db/client.ts";
import { BOOKS } from "../ledger/index.ts";
import { type InstrumentView, loadCatalogue, readTickers } from "../markets/index.ts";
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
 * refreshes so a restarted matcher gets quotes again soon. It sends commands; the matcher applies them.
 */
export class MarketMaker {
  private timer: ReturnType<typeof setInterval> | null = null;
  private readonly quoted = new Map<string, { price: string; at: number }>();
  private markets: { at: number; list: InstrumentView[] } = { at: 0, list: [] };
  private busy = false;

  constructor(
    private readonly options: { db: Db; redis: Redis; prefix: string; log?: (line: string) => void },
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
      const pipeline = redis.pipeline();
      const now = Date.now();
      for (const market of this.markets.list) {
        const ticker = tickers.get(market.symbol);
        const last = this.quoted.get(market.symbol);
        if (!ticker?.x) {
          continue;
        }
        if (last && last.price === ticker.p && now - last.at < settings.refreshMs * 10) {
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
