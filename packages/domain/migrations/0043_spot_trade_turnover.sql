-- Spot turnover is read from the fills themselves: each real-book fill in a USDT market carries its
-- USDT value, counted for its maker's and its taker's withdrawal turnover. The value each fill side
-- reported to trade_turnover (only spot ever did) moves onto its fill, then the table goes: it held
-- nothing the fills do not.
ALTER TABLE "spot_trades" ADD COLUMN "value_usdt" numeric(38, 18);--> statement-breakpoint
UPDATE "spot_trades" AS t SET "value_usdt" = r."value_usdt"
FROM (
  SELECT DISTINCT ON (split_part("reference", ':', 2)::bigint)
    split_part("reference", ':', 2)::bigint AS "trade_id", "value_usdt"
  FROM "trade_turnover"
  WHERE "source" = 'spot' AND "reference" LIKE 'spot_trade:%'
  ORDER BY split_part("reference", ':', 2)::bigint, "id"
) AS r
WHERE t."id" = r."trade_id";--> statement-breakpoint
DROP TABLE "trade_turnover";
