import type { TSpotOrderEvent } from "@northstar/shared/contracts/spot";
import { channel, type MarketTrade, type Depth as WireDepth } from "@northstar/shared/markets";
import type { Redis } from "ioredis";
import { BOOKS } from "../../ledger/index.ts";
import { ChannelPublisher } from "../../markets/index.ts";
import { publishUserEvents } from "../../messages/index.ts";
import { bestAskKey } from "../commands.ts";
import { fromLots, fromTicks } from "../engine/units.ts";
import { toOrderView } from "../order-view.ts";
import type { Batch, Market } from "./batch.ts";

const DEPTH_LEVELS = 20;
const RECENT_TRADES = 50;
/** A stopped matcher's best asks expire, so market buys by quantity are refused rather than mispriced. */
const BEST_ASK_TTL_SECONDS = 3600;

/**
 * What the matcher tells the market socket once a batch is committed: the real book's depth of
 * every market it changed, its new fills, and each affected user's order states and a balance nudge.
 * The demo book trades against the same quotes and is not shown as market depth.
 */
export class MatcherPublisher {
  private readonly publisher: ChannelPublisher;
  /** Best asks changed since the last flush, by key. */
  private readonly bestAsks = new Map<string, string>();

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {
    this.publisher = new ChannelPublisher(redis, prefix);
  }

  depth(market: Market) {
    for (const book of BOOKS) {
      const ask = market.books[book].engine.depth(1).asks[0];
      this.bestAsks.set(
        bestAskKey(this.prefix, book, market.symbol),
        ask ? fromTicks(ask[0], market.tickSize) : "",
      );
    }
    const depth = market.books.real.engine.depth(DEPTH_LEVELS);
    const wire: WireDepth = {
      bids: depth.bids.map(([p, q]) => [fromTicks(p, market.tickSize), fromLots(q, market.lotSize)]),
      asks: depth.asks.map(([p, q]) => [fromTicks(p, market.tickSize), fromLots(q, market.lotSize)]),
    };
    this.publisher.publish(channel.depth(market.symbol), wire);
  }

  async batch(batch: Batch, markets: ReadonlyMap<string, Market>): Promise<void> {
    for (const symbol of batch.depthChanged) {
      const market = markets.get(symbol);
      if (market) {
        this.depth(market);
      }
    }
    const fresh = new Map<string, MarketTrade[]>();
    for (const trade of batch.trades) {
      if (trade.book !== "real") {
        continue;
      }
      const list = fresh.get(trade.symbol) ?? [];
      list.unshift({
        id: String(trade.id),
        p: trade.price,
        q: trade.quantity,
        side: trade.takerSide,
        t: trade.at,
      });
      fresh.set(trade.symbol, list);
    }
    for (const [symbol, list] of fresh) {
      const market = markets.get(symbol);
      if (market) {
        market.recentTrades = [...list, ...market.recentTrades].slice(0, RECENT_TRADES);
        this.publisher.publish(channel.trades(symbol), list, market.recentTrades);
      }
    }
    const users = new Set<number>();
    const userEvents: { userId: number; data: unknown }[] = [];
    for (const order of batch.touched) {
      const event: TSpotOrderEvent = { type: "spot.order", order: toOrderView(order.row) };
      userEvents.push({ userId: order.row.userId, data: event });
      users.add(order.row.userId);
    }
    for (const userId of users) {
      userEvents.push({ userId, data: { type: "balance" } });
    }
    await this.flush();
    // The user channel's sequence is shared with other publishers (messages, support), so it is
    // taken in Redis rather than from this publisher's counters.
    await publishUserEvents(this.redis, this.prefix, userEvents);
  }

  async flush(): Promise<void> {
    if (this.bestAsks.size > 0) {
      const pipeline = this.redis.pipeline();
      for (const [key, price] of this.bestAsks) {
        pipeline.set(key, price, "EX", BEST_ASK_TTL_SECONDS);
      }
      this.bestAsks.clear();
      const failed = (await pipeline.exec())?.find(([error]) => error);
      if (failed) {
        throw failed[0];
      }
    }
    await this.publisher.flush();
  }

  close() {
    this.redis.disconnect();
  }
}
