CREATE TABLE "contract_closes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"position_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"book" text NOT NULL,
	"symbol" text NOT NULL,
	"lots" numeric(38, 18) NOT NULL,
	"price" numeric(38, 18) NOT NULL,
	"tick_id" bigint,
	"reason" text NOT NULL,
	"pnl" numeric(38, 18) NOT NULL,
	"fee" numeric(38, 18) NOT NULL,
	"payout" numeric(38, 18) NOT NULL,
	"shortfall" numeric(38, 18) NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contract_engine_cursor" (
	"name" text PRIMARY KEY NOT NULL,
	"tick_id" bigint NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contract_overnight" (
	"position_id" bigint NOT NULL,
	"day" date NOT NULL,
	"price" numeric(38, 18) NOT NULL,
	"amount" numeric(38, 18) NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "contract_overnight_position_id_day_pk" PRIMARY KEY("position_id","day")
);
--> statement-breakpoint
CREATE TABLE "contract_positions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"book" text NOT NULL,
	"symbol" text NOT NULL,
	"product_type" text NOT NULL,
	"side" text NOT NULL,
	"order_type" text NOT NULL,
	"status" text NOT NULL,
	"lots" numeric(38, 18) NOT NULL,
	"original_lots" numeric(38, 18) NOT NULL,
	"contract_size" numeric(38, 18) NOT NULL,
	"leverage" integer NOT NULL,
	"limit_price" numeric(38, 18),
	"entry_price" numeric(38, 18),
	"margin" numeric(38, 18) NOT NULL,
	"initial_margin" numeric(38, 18) NOT NULL,
	"held_fee" numeric(38, 18) DEFAULT '0' NOT NULL,
	"open_fee" numeric(38, 18) DEFAULT '0' NOT NULL,
	"close_fee" numeric(38, 18) DEFAULT '0' NOT NULL,
	"overnight_total" numeric(38, 18) DEFAULT '0' NOT NULL,
	"realised_pnl" numeric(38, 18) DEFAULT '0' NOT NULL,
	"take_profit" numeric(38, 18),
	"stop_loss" numeric(38, 18),
	"maintenance_rate" numeric(38, 18) NOT NULL,
	"fee_rate" numeric(38, 18) NOT NULL,
	"overnight_rate" numeric(38, 18) NOT NULL,
	"open_tick_id" bigint,
	"exit_price" numeric(38, 18),
	"close_reason" text,
	"close_tick_id" bigint,
	"expires_at" timestamp (3) with time zone,
	"revision" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"opened_at" timestamp (3) with time zone,
	"closed_at" timestamp (3) with time zone,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "contract_positions_lots_nonnegative" CHECK ("contract_positions"."lots" >= 0),
	CONSTRAINT "contract_positions_margin_nonnegative" CHECK ("contract_positions"."margin" >= 0)
);
--> statement-breakpoint
CREATE TABLE "contract_ticks" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"symbol" text NOT NULL,
	"price" numeric(38, 18) NOT NULL,
	"time" timestamp (3) with time zone NOT NULL,
	"recorded_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "contract_closes_position_idx" ON "contract_closes" USING btree ("position_id","id");--> statement-breakpoint
CREATE INDEX "contract_closes_reason_idx" ON "contract_closes" USING btree ("reason","id");--> statement-breakpoint
CREATE INDEX "contract_positions_user_idx" ON "contract_positions" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "contract_positions_live_idx" ON "contract_positions" USING btree ("symbol","id") WHERE "contract_positions"."status" in ('pending', 'holding');--> statement-breakpoint
CREATE INDEX "contract_positions_updated_idx" ON "contract_positions" USING btree ("updated_at");--> statement-breakpoint
CREATE INDEX "contract_ticks_symbol_time_idx" ON "contract_ticks" USING btree ("symbol","time","id");