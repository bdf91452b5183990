CREATE TABLE "spot_orders" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"book" text NOT NULL,
	"symbol" text NOT NULL,
	"base" text NOT NULL,
	"quote" text NOT NULL,
	"side" text NOT NULL,
	"type" text NOT NULL,
	"time_in_force" text NOT NULL,
	"price" numeric(38, 18),
	"quantity" numeric(38, 18),
	"quote_amount" numeric(38, 18),
	"filled_qty" numeric(38, 18) DEFAULT '0' NOT NULL,
	"filled_quote" numeric(38, 18) DEFAULT '0' NOT NULL,
	"fee" numeric(38, 18) DEFAULT '0' NOT NULL,
	"fee_currency" text NOT NULL,
	"hold_currency" text NOT NULL,
	"held" numeric(38, 18) NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"cancel_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "spot_orders_held_not_negative" CHECK ("spot_orders"."held" >= 0)
);
--> statement-breakpoint
CREATE TABLE "spot_stream_cursors" (
	"symbol" text PRIMARY KEY NOT NULL,
	"last_id" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "spot_trades" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"symbol" text NOT NULL,
	"book" text NOT NULL,
	"price" numeric(38, 18) NOT NULL,
	"quantity" numeric(38, 18) NOT NULL,
	"quote_qty" numeric(38, 18) NOT NULL,
	"taker_side" text NOT NULL,
	"maker_order_id" bigint,
	"taker_order_id" bigint,
	"maker_user_id" bigint,
	"taker_user_id" bigint,
	"maker_fee" numeric(38, 18) NOT NULL,
	"taker_fee" numeric(38, 18) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "spot_orders_user_idx" ON "spot_orders" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "spot_orders_open_idx" ON "spot_orders" USING btree ("symbol","book","id") WHERE "spot_orders"."status" in ('pending', 'open', 'partial');--> statement-breakpoint
CREATE INDEX "spot_orders_user_open_idx" ON "spot_orders" USING btree ("user_id","symbol") WHERE "spot_orders"."status" in ('pending', 'open', 'partial');--> statement-breakpoint
CREATE INDEX "spot_trades_symbol_idx" ON "spot_trades" USING btree ("symbol","book","id");--> statement-breakpoint
CREATE INDEX "spot_trades_maker_user_idx" ON "spot_trades" USING btree ("maker_user_id","id");--> statement-breakpoint
CREATE INDEX "spot_trades_taker_user_idx" ON "spot_trades" USING btree ("taker_user_id","id");