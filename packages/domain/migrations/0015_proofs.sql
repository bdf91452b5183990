CREATE TABLE "liability_proof_leaves" (
	"proof_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"leaf_index" integer NOT NULL,
	"salt" text NOT NULL,
	"balances" jsonb NOT NULL,
	CONSTRAINT "liability_proof_leaves_proof_id_user_id_pk" PRIMARY KEY("proof_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "liability_proof_nodes" (
	"proof_id" bigint NOT NULL,
	"level" integer NOT NULL,
	"idx" integer NOT NULL,
	"hash" text NOT NULL,
	"sums" jsonb NOT NULL,
	CONSTRAINT "liability_proof_nodes_proof_id_level_idx_pk" PRIMARY KEY("proof_id","level","idx")
);
--> statement-breakpoint
CREATE TABLE "liability_proofs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"snapshot_at" timestamp (3) with time zone NOT NULL,
	"currencies" jsonb NOT NULL,
	"root_hash" text NOT NULL,
	"root_sums" jsonb NOT NULL,
	"leaf_count" integer NOT NULL,
	"published_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "liability_proof_leaves_index" ON "liability_proof_leaves" USING btree ("proof_id","leaf_index");