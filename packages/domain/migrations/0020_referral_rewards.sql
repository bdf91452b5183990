CREATE TABLE "referral_rewards" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"day" date NOT NULL,
	"beneficiary_id" bigint NOT NULL,
	"invitee_id" bigint NOT NULL,
	"level" smallint NOT NULL,
	"currency" text NOT NULL,
	"fee" numeric(38, 18) NOT NULL,
	"rate" numeric(12, 8) NOT NULL,
	"amount" numeric(38, 18) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "referral_runs" (
	"day" date PRIMARY KEY NOT NULL,
	"fee_postings" integer DEFAULT 0 NOT NULL,
	"rewards" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sign_in_claims" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"local_date" date NOT NULL,
	"cycle_day" smallint NOT NULL,
	"currency" text NOT NULL,
	"amount" numeric(38, 18) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sign_in_profiles" (
	"user_id" bigint PRIMARY KEY NOT NULL,
	"time_zone" text NOT NULL,
	"cycle_day" smallint DEFAULT 0 NOT NULL,
	"last_claim_date" date,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "referral_rewards_day_pair_key" ON "referral_rewards" USING btree ("day","beneficiary_id","invitee_id","currency");--> statement-breakpoint
CREATE INDEX "referral_rewards_beneficiary_idx" ON "referral_rewards" USING btree ("beneficiary_id","day");--> statement-breakpoint
CREATE UNIQUE INDEX "sign_in_claims_user_day_key" ON "sign_in_claims" USING btree ("user_id","local_date");