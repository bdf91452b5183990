import {
  getCandles,
  getInstrument,
  type InstrumentView,
  listFavourites,
  listInstruments,
  marketPriceStatus,
  readTickers,
  runningFeed,
  setFavourite,
} from "@northstar/domain/markets";
import {
  ZCandlesRequestSchema,
  ZFavouriteRequestSchema,
  ZMarketListRequestSchema,
  ZSymbolRequestSchema,
} from "@northstar/shared/contracts/markets";
import { isMarketOpen, type Ticker } from "@northstar/shared/markets";
import { authedProcedure, publicProcedure, router } from "../../init.ts";

/** What market screens show of an instrument; simulator settings stay on the server. */
function marketRow(instrument: InstrumentView, ticker: Ticker | undefined) {
  return {
    symbol: instrument.symbol,
    name: instrument.name,
    category: instrument.category,
    base: instrument.base,
    quote: instrument.quote,
    tickSize: instrument.tickSize,
    lotSize: instrument.lotSize,
    minQty: instrument.minQty,
    contractSize: instrument.contractSize,
    maxLeverage: instrument.maxLeverage,
    displayDecimals: instrument.displayDecimals,
    kinds: instrument.kinds,
    tradingHours: instrument.tradingHours,
    open: isMarketOpen(instrument.tradingHours),
    ticker: ticker ?? null,
  };
}
export type MarketRow = ReturnType<typeof marketRow>;

/** Public market data: the catalogue with last prices, candles, and the user's favourites. */
export const marketRouter = router({
  /** Which feed serves the prices: every page says "simulated prices" unless it is a live market's. */
  feed: publicProcedure.query(({ ctx }) => runningFeed(ctx.deps.db)),
  list: publicProcedure.input(ZMarketListRequestSchema).query(async ({ ctx, input }) => {
    const kind = input.tab === "contract" ? "contract" : input.tab === "exchange" ? "spot" : undefined;
    const [{ items, total }, tickers] = await Promise.all([
      listInstruments(ctx.deps.db, {
        kind,
        category: input.category,
        search: input.search,
        symbols: input.symbols,
        page: input.page,
        pageSize: input.page_size,
      }),
      readTickers(ctx.deps.redis, ctx.deps.config.redisPrefix),
    ]);
    return { items: items.map((i) => marketRow(i, tickers.get(i.symbol))), total };
  }),
  instrument: publicProcedure.input(ZSymbolRequestSchema).query(async ({ ctx, input }) => {
    const [instrument, tickers, prices] = await Promise.all([
      getInstrument(ctx.deps.db, input.symbol),
      readTickers(ctx.deps.redis, ctx.deps.config.redisPrefix),
      marketPriceStatus(ctx.deps.db, input.symbol),
    ]);
    // Where its prices come from, and why it takes no orders when it does not (a paused source).
    return { ...marketRow(instrument, tickers.get(instrument.symbol)), prices };
  }),
  candles: publicProcedure.input(ZCandlesRequestSchema).query(async ({ ctx, input }) => {
    await getInstrument(ctx.deps.db, input.symbol);
    const options =
      input.before === undefined ? { limit: input.limit } : { limit: input.limit, before: input.before };
    return getCandles(ctx.deps.db, input.symbol, input.period, options);
  }),
  favourites: authedProcedure.query(({ ctx }) => listFavourites(ctx.deps.db, ctx.auth.user.id)),
  setFavourite: authedProcedure
    .input(ZFavouriteRequestSchema)
    .mutation(({ ctx, input }) => setFavourite(ctx.deps.db, ctx.auth.user.id, input.symbol, input.favourite)),
});
