CREATE TABLE "earn_daily_rates" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"product_id" bigint NOT NULL,
	"day" date NOT NULL,
	"rate" numeric(12, 8) NOT NULL,
	"published_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "earn_orders" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"product_id" bigint NOT NULL,
	"currency" text NOT NULL,
	"amount" numeric(38, 18) NOT NULL,
	"cycle_days" integer NOT NULL,
	"daily_rate" numeric(12, 8) NOT NULL,
	"start_day" date NOT NULL,
	"paid_days" integer DEFAULT 0 NOT NULL,
	"profit" numeric(38, 18) DEFAULT '0' NOT NULL,
	"penalty" numeric(38, 18),
	"status" text DEFAULT 'holding' NOT NULL,
	"redeem_requested_at" timestamp with time zone,
	"reject_reason" text,
	"reviewed_by" bigint,
	"closed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "earn_products" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"family" text NOT NULL,
	"name" text NOT NULL,
	"currency" text NOT NULL,
	"cycle_days" integer NOT NULL,
	"rate_min" numeric(12, 8) NOT NULL,
	"rate_max" numeric(12, 8) NOT NULL,
	"min_amount" numeric(38, 18) NOT NULL,
	"max_amount" numeric(38, 18) NOT NULL,
	"user_limit" numeric(38, 18) NOT NULL,
	"user_count" integer NOT NULL,
	"capacity" numeric(38, 18) NOT NULL,
	"sold" numeric(38, 18) DEFAULT '0' NOT NULL,
	"risk_level" text NOT NULL,
	"redemption_rule" text NOT NULL,
	"on_sale" text DEFAULT 'on' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "earn_products_sold_within_capacity" CHECK ("earn_products"."sold" <= "earn_products"."capacity"),
	CONSTRAINT "earn_products_rate_range" CHECK ("earn_products"."rate_min" <= "earn_products"."rate_max")
);
--> statement-breakpoint
CREATE TABLE "earn_yield_days" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"order_id" bigint NOT NULL,
	"product_id" bigint NOT NULL,
	"day" date NOT NULL,
	"rate" numeric(12, 8) NOT NULL,
	"amount" numeric(38, 18) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "launchpad_offerings" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"coin" text NOT NULL,
	"name" text NOT NULL,
	"pay_currency" text NOT NULL,
	"issue_price" numeric(38, 18) NOT NULL,
	"subscribe_price" numeric(38, 18) NOT NULL,
	"total_quantity" numeric(38, 18) NOT NULL,
	"min_quantity" numeric(38, 18) NOT NULL,
	"max_quantity" numeric(38, 18) NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"lock_days" integer NOT NULL,
	"listing_day" date NOT NULL,
	"circulation" numeric(38, 18) NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"fail_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "launchpad_subscriptions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"offering_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"quantity" numeric(38, 18) NOT NULL,
	"frozen" numeric(38, 18) NOT NULL,
	"passed_quantity" numeric(38, 18) DEFAULT '0' NOT NULL,
	"fee" numeric(38, 18) DEFAULT '0' NOT NULL,
	"refunded" numeric(38, 18) DEFAULT '0' NOT NULL,
	"status" text DEFAULT 'reviewing' NOT NULL,
	"fail_reason" text,
	"reject_reason" text,
	"unlock_at" timestamp with time zone,
	"unlocked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "earn_daily_rates_product_day" ON "earn_daily_rates" USING btree ("product_id","day");--> statement-breakpoint
CREATE INDEX "earn_orders_user_idx" ON "earn_orders" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "earn_orders_status_idx" ON "earn_orders" USING btree ("status","id");--> statement-breakpoint
CREATE INDEX "earn_orders_product_user_idx" ON "earn_orders" USING btree ("product_id","user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "earn_yield_days_order_day" ON "earn_yield_days" USING btree ("order_id","day");--> statement-breakpoint
CREATE INDEX "earn_yield_days_day_idx" ON "earn_yield_days" USING btree ("day","product_id");--> statement-breakpoint
CREATE UNIQUE INDEX "launchpad_subscriptions_user_offering" ON "launchpad_subscriptions" USING btree ("offering_id","user_id");--> statement-breakpoint
CREATE INDEX "launchpad_subscriptions_user_idx" ON "launchpad_subscriptions" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "launchpad_subscriptions_unlock_idx" ON "launchpad_subscriptions" USING btree ("status","unlock_at");