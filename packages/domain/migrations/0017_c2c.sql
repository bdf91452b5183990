CREATE TABLE "c2c_merchants" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"coin" text NOT NULL,
	"fiat" text NOT NULL,
	"price" numeric(38, 18) NOT NULL,
	"min_fiat" numeric(38, 18) NOT NULL,
	"max_fiat" numeric(38, 18) NOT NULL,
	"payee_name" text NOT NULL,
	"bank_name" text NOT NULL,
	"bank_account" text NOT NULL,
	"bank_branch" text DEFAULT '' NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"stock_available" numeric(38, 18) DEFAULT '0' NOT NULL,
	"stock_reserved" numeric(38, 18) DEFAULT '0' NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "c2c_merchants_stock_not_negative" CHECK ("c2c_merchants"."stock_available" >= 0 and "c2c_merchants"."stock_reserved" >= 0),
	CONSTRAINT "c2c_merchants_range" CHECK ("c2c_merchants"."min_fiat" <= "c2c_merchants"."max_fiat" and "c2c_merchants"."price" > 0)
);
--> statement-breakpoint
CREATE TABLE "c2c_orders" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"merchant_id" bigint NOT NULL,
	"coin" text NOT NULL,
	"fiat" text NOT NULL,
	"price" numeric(38, 18) NOT NULL,
	"mode" text NOT NULL,
	"fiat_amount" numeric(38, 18) NOT NULL,
	"coin_amount" numeric(38, 18) NOT NULL,
	"status" text DEFAULT 'unmatched' NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"matched_at" timestamp with time zone,
	"proof_upload_id" uuid,
	"proof_note" text,
	"paid_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"expired_at" timestamp with time zone,
	"rejected_at" timestamp with time zone,
	"reject_reason" text,
	"decided_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "c2c_orders_amounts_positive" CHECK ("c2c_orders"."fiat_amount" > 0 and "c2c_orders"."coin_amount" > 0 and "c2c_orders"."price" > 0)
);
--> statement-breakpoint
CREATE TABLE "c2c_payment_settings" (
	"user_id" bigint PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"bank_name" text DEFAULT '' NOT NULL,
	"bank_number" text DEFAULT '' NOT NULL,
	"alipay_account" text DEFAULT '' NOT NULL,
	"weixin_nickname" text DEFAULT '' NOT NULL,
	"weixin_account" text DEFAULT '' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "c2c_rules" (
	"id" text PRIMARY KEY NOT NULL,
	"texts" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "c2c_stock_moves" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"merchant_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"amount" numeric(38, 18) NOT NULL,
	"actor" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "c2c_orders_user_idx" ON "c2c_orders" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "c2c_orders_status_idx" ON "c2c_orders" USING btree ("status","expires_at");--> statement-breakpoint
CREATE INDEX "c2c_orders_merchant_idx" ON "c2c_orders" USING btree ("merchant_id","status","created_at");--> statement-breakpoint
CREATE INDEX "c2c_stock_moves_merchant_idx" ON "c2c_stock_moves" USING btree ("merchant_id","created_at");