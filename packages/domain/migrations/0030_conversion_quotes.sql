CREATE TABLE "conversion_quotes" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"book" text NOT NULL,
	"from_currency" text NOT NULL,
	"to_currency" text NOT NULL,
	"amount" numeric(38, 18) NOT NULL,
	"price" numeric(38, 18) NOT NULL,
	"received" numeric(38, 18) NOT NULL,
	"spread" numeric(38, 18) NOT NULL,
	"turnover_usdt" numeric(38, 18) NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"transfer_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "conversion_quotes_user_idx" ON "conversion_quotes" USING btree ("user_id","created_at");