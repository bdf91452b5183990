CREATE TABLE "hot_wallet_nonces" (
	"chain" text NOT NULL,
	"address" text NOT NULL,
	"next_nonce" bigint NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "hot_wallet_nonces_chain_address_pk" PRIMARY KEY("chain","address")
);
--> statement-breakpoint
CREATE TABLE "hot_wallet_payouts" (
	"withdrawal_id" bigint PRIMARY KEY NOT NULL,
	"chain" text NOT NULL,
	"from_address" text NOT NULL,
	"to_address" text NOT NULL,
	"currency" text NOT NULL,
	"amount" numeric(38, 18) NOT NULL,
	"nonce" bigint NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hot_wallet_transactions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"withdrawal_id" bigint NOT NULL,
	"attempt" integer NOT NULL,
	"hash" text NOT NULL,
	"raw" text NOT NULL,
	"gas" numeric(78, 0) NOT NULL,
	"max_fee_per_gas" numeric(78, 0) NOT NULL,
	"max_priority_fee_per_gas" numeric(78, 0) NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "released_by" bigint;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "tx_hash" text;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "confirmations" integer;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "confirmations_required" integer;--> statement-breakpoint
CREATE UNIQUE INDEX "hot_wallet_payouts_nonce_uq" ON "hot_wallet_payouts" USING btree ("chain","from_address","nonce");--> statement-breakpoint
CREATE INDEX "hot_wallet_payouts_day_idx" ON "hot_wallet_payouts" USING btree ("chain","currency","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "hot_wallet_transactions_attempt_uq" ON "hot_wallet_transactions" USING btree ("withdrawal_id","attempt");--> statement-breakpoint
CREATE UNIQUE INDEX "hot_wallet_transactions_hash_uq" ON "hot_wallet_transactions" USING btree ("hash");