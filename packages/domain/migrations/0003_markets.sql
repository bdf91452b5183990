CREATE TABLE "candles" (
	"symbol" text NOT NULL,
	"period" text NOT NULL,
	"time" timestamp with time zone NOT NULL,
	"open" numeric(38, 18) NOT NULL,
	"high" numeric(38, 18) NOT NULL,
	"low" numeric(38, 18) NOT NULL,
	"close" numeric(38, 18) NOT NULL,
	"volume" numeric(38, 18) NOT NULL,
	CONSTRAINT "candles_symbol_period_time_pk" PRIMARY KEY("symbol","period","time")
);
--> statement-breakpoint
CREATE TABLE "instruments" (
	"id" serial PRIMARY KEY NOT NULL,
	"symbol" text NOT NULL,
	"name" text NOT NULL,
	"category" text NOT NULL,
	"base" text NOT NULL,
	"quote" text NOT NULL,
	"tick_size" numeric(38, 18) NOT NULL,
	"lot_size" numeric(38, 18) NOT NULL,
	"min_qty" numeric(38, 18) NOT NULL,
	"contract_size" numeric(38, 18) NOT NULL,
	"max_leverage" integer NOT NULL,
	"display_decimals" integer NOT NULL,
	"kinds" text[] NOT NULL,
	"trading_hours" jsonb NOT NULL,
	"reference_price" numeric(38, 18) NOT NULL,
	"volatility" numeric(38, 18) NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "instruments_symbol_unique" UNIQUE("symbol")
);
--> statement-breakpoint
CREATE TABLE "market_favourites" (
	"user_id" bigint NOT NULL,
	"symbol" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "market_favourites_user_id_symbol_pk" PRIMARY KEY("user_id","symbol")
);
--> statement-breakpoint
ALTER TABLE "market_favourites" ADD CONSTRAINT "market_favourites_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "instruments_category_sort" ON "instruments" USING btree ("category","sort");