CREATE TABLE "chain_addresses" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"network" text NOT NULL,
	"user_id" bigint NOT NULL,
	"derivation_index" integer NOT NULL,
	"address" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chain_alerts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"network" text NOT NULL,
	"kind" text NOT NULL,
	"transfer_id" bigint NOT NULL,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone,
	"resolved_by" text
);
--> statement-breakpoint
CREATE TABLE "chain_blocks" (
	"network" text NOT NULL,
	"number" bigint NOT NULL,
	"hash" text NOT NULL,
	"parent_hash" text NOT NULL,
	"processed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "chain_blocks_network_number_pk" PRIMARY KEY("network","number")
);
--> statement-breakpoint
CREATE TABLE "chain_transfers" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"network" text NOT NULL,
	"tx_hash" text NOT NULL,
	"log_index" integer NOT NULL,
	"block_number" bigint,
	"block_hash" text,
	"user_id" bigint NOT NULL,
	"address" text NOT NULL,
	"currency" text NOT NULL,
	"amount" numeric(38, 18) NOT NULL,
	"status" text DEFAULT 'confirming' NOT NULL,
	"deposit_id" bigint,
	"credited_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ledger_accounts" DROP CONSTRAINT "ledger_accounts_system_rule";--> statement-breakpoint
DROP INDEX "deposits_tx_hash_key";--> statement-breakpoint
ALTER TABLE "deposits" ADD COLUMN "log_index" integer;--> statement-breakpoint
ALTER TABLE "deposits" ADD COLUMN "confirmations" integer;--> statement-breakpoint
ALTER TABLE "deposits" ADD COLUMN "confirmations_required" integer;--> statement-breakpoint
CREATE UNIQUE INDEX "chain_addresses_user_key" ON "chain_addresses" USING btree ("network","user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "chain_addresses_index_key" ON "chain_addresses" USING btree ("network","derivation_index");--> statement-breakpoint
CREATE UNIQUE INDEX "chain_addresses_address_key" ON "chain_addresses" USING btree ("network","address");--> statement-breakpoint
CREATE UNIQUE INDEX "chain_alerts_open_key" ON "chain_alerts" USING btree ("transfer_id","kind") WHERE "chain_alerts"."resolved_at" is null;--> statement-breakpoint
CREATE INDEX "chain_alerts_created_idx" ON "chain_alerts" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "chain_transfers_tx_key" ON "chain_transfers" USING btree ("network","tx_hash","log_index");--> statement-breakpoint
CREATE INDEX "chain_transfers_status_idx" ON "chain_transfers" USING btree ("network","status","block_number");--> statement-breakpoint
CREATE UNIQUE INDEX "deposits_tx_hash_key" ON "deposits" USING btree ("chain","tx_hash",coalesce("log_index", -1)) WHERE "deposits"."status" <> 'failed';--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_system_rule" CHECK (system_code is null or case when system_code in ('contracts_house', 'contracts_insurance', 'house', 'launchpad_issuer', 'market_maker', 'options_house') then true when system_code in ('c2c_supply', 'demo_faucet', 'earn_yield', 'loans_pool', 'marketing_funding') or starts_with(system_code, 'chain_custody:') or starts_with(system_code, 'deposit_clearing:') then balance <= 0 else balance >= 0 end);