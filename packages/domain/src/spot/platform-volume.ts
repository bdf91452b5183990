import { sql } from "drizzle-orm";
import { addPlatformVolumeSource } from "../markets/index.ts";

// The tickers' 24h volume and turnover are the platform's own: the real book's spot trades (the demo
// book's play money is not volume), base quantity and quote amount per market.
addPlatformVolumeSource(async (db, since) => {
  const rows = await db.execute<{ symbol: string; volume: string; turnover: string }>(sql`
    select symbol, sum(quantity)::text as volume, sum(quote_qty)::text as turnover
    from spot_trades
    where book = 'real' and created_at >= ${since.toISOString()}::timestamptz
    group by symbol
    order by symbol`);
  return new Map(rows.rows.map((r) => [r.symbol, { volume: r.volume, turnover: r.turnover }]));
});
