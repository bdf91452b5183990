CREATE TABLE "ledger_reconcile_runs" (
	"slot" timestamp with time zone PRIMARY KEY NOT NULL,
	"ok" boolean NOT NULL,
	"problems" integer NOT NULL,
	"summary" text NOT NULL,
	"duration_ms" integer NOT NULL,
	"ran_at" timestamp with time zone DEFAULT now() NOT NULL
);
