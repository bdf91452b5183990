CREATE TABLE "option_orders" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"book" text NOT NULL,
	"symbol" text NOT NULL,
	"direction" text NOT NULL,
	"period_seconds" integer NOT NULL,
	"amount" numeric(38, 18) NOT NULL,
	"fee" numeric(38, 18) NOT NULL,
	"fee_rate" numeric(38, 18) NOT NULL,
	"payout_rate" numeric(38, 18) NOT NULL,
	"tie_rule" text NOT NULL,
	"purchase_tick_id" bigint NOT NULL,
	"purchase_price" numeric(38, 18) NOT NULL,
	"purchase_tick_time" timestamp (3) with time zone NOT NULL,
	"purchased_at" timestamp (3) with time zone NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"settlement_tick_id" bigint,
	"settlement_price" numeric(38, 18),
	"settlement_tick_time" timestamp (3) with time zone,
	"settled_at" timestamp (3) with time zone,
	"payout" numeric(38, 18),
	"profit" numeric(38, 18),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "option_orders_amount_positive" CHECK ("option_orders"."amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "option_ticks" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"symbol" text NOT NULL,
	"price" numeric(38, 18) NOT NULL,
	"time" timestamp (3) with time zone NOT NULL,
	"recorded_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "option_orders_user_idx" ON "option_orders" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "option_orders_open_expiry_idx" ON "option_orders" USING btree ("expires_at","id") WHERE "option_orders"."status" = 'open';--> statement-breakpoint
CREATE INDEX "option_orders_settled_idx" ON "option_orders" USING btree ("settled_at","id");--> statement-breakpoint
CREATE INDEX "option_ticks_symbol_time_idx" ON "option_ticks" USING btree ("symbol","time","id");