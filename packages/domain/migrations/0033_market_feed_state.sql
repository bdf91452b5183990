CREATE TABLE "market_feed_state" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text,
	"sandbox" boolean DEFAULT false NOT NULL,
	"simulator_seed" text,
	"started_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
