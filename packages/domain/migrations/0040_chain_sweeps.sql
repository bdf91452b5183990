CREATE TABLE "chain_sweeps" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"network" text NOT NULL,
	"address" text NOT NULL,
	"derivation_index" integer NOT NULL,
	"currency" text NOT NULL,
	"status" text DEFAULT 'planned' NOT NULL,
	"amount" numeric(38, 18) NOT NULL,
	"hot_address" text NOT NULL,
	"gas" numeric(78, 0) NOT NULL,
	"max_fee_per_gas" numeric(78, 0) NOT NULL,
	"max_priority_fee_per_gas" numeric(78, 0) NOT NULL,
	"gas_top_up" numeric(38, 18) DEFAULT '0' NOT NULL,
	"top_up_hash" text,
	"top_up_raw" text,
	"top_up_nonce" bigint,
	"sweep_hash" text,
	"sweep_raw" text,
	"sweep_nonce" bigint,
	"top_up_fee" numeric(38, 18),
	"sweep_fee" numeric(38, 18),
	"confirmations" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ledger_accounts" DROP CONSTRAINT "ledger_accounts_system_rule";--> statement-breakpoint
ALTER TABLE "hot_wallet_transactions" ADD COLUMN "signed_at_block" bigint;--> statement-breakpoint
CREATE UNIQUE INDEX "chain_sweeps_open_key" ON "chain_sweeps" USING btree ("network","address") WHERE "chain_sweeps"."status" in ('planned', 'gas_sent', 'sent');--> statement-breakpoint
CREATE INDEX "chain_sweeps_created_idx" ON "chain_sweeps" USING btree ("network","created_at");--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_system_rule" CHECK (system_code is null or case when system_code in ('contracts_house', 'contracts_insurance', 'house', 'launchpad_issuer', 'market_maker', 'options_house') then true when system_code in ('c2c_supply', 'chain_gas', 'demo_faucet', 'earn_yield', 'loans_pool', 'marketing_funding') or starts_with(system_code, 'chain_custody:') or starts_with(system_code, 'deposit_clearing:') then balance <= 0 else balance >= 0 end);