ALTER TABLE "liability_proof_leaves" ADD COLUMN "breakdown" jsonb;--> statement-breakpoint
ALTER TABLE "liability_proofs" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "liability_proofs" ADD COLUMN "buckets" jsonb;--> statement-breakpoint
ALTER TABLE "liability_proofs" ADD COLUMN "bucket_totals" jsonb;--> statement-breakpoint
ALTER TABLE "liability_proofs" ADD COLUMN "ledger_claims" jsonb;