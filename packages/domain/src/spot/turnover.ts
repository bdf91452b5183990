import { sql } from "drizzle-orm";
import { executePrepared } from "../db/client.ts";
import { addTurnoverSource } from "../funding/index.ts";

// A user's spot turnover, for the withdrawal requirement: the USDT value of each of their real-book
// fills, as maker and as taker (a fill between two of their own orders counts on both sides), read
// from the fills themselves through the two per-user indexes.
addTurnoverSource(async (db, userId) => {
  const rows = await executePrepared<{ total: string }>(
    db,
    sql`select coalesce(sum(value_usdt), 0)::text as total from (
          select value_usdt from spot_trades where maker_user_id = ${userId} and value_usdt is not null
          union all
          select value_usdt from spot_trades where taker_user_id = ${userId} and value_usdt is not null
        ) as fills`,
  );
  return rows.rows[0]?.total ?? "0";
});
