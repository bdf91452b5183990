-- Each user's open spot orders per market, counted once here from the orders and kept exact from now
-- on by the intake (orders recorded) and the matcher (orders ended): the open-order limit reads one
-- row instead of counting the user's orders on every order.
CREATE TABLE "spot_open_order_counts" (
	"user_id" bigint NOT NULL,
	"symbol" text NOT NULL,
	"open" integer NOT NULL,
	CONSTRAINT "spot_open_order_counts_user_id_symbol_pk" PRIMARY KEY("user_id","symbol"),
	CONSTRAINT "spot_open_order_counts_not_negative" CHECK ("spot_open_order_counts"."open" >= 0)
);
--> statement-breakpoint
INSERT INTO "spot_open_order_counts" ("user_id", "symbol", "open")
SELECT "user_id", "symbol", count(*)::int FROM "spot_orders"
WHERE "status" IN ('pending', 'open', 'partial')
GROUP BY "user_id", "symbol";
