CREATE TABLE "loan_late_fee_days" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"loan_id" bigint NOT NULL,
	"day" date NOT NULL,
	"base" numeric(38, 18) NOT NULL,
	"amount" numeric(38, 18) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "loan_products" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"currency" text NOT NULL,
	"cycle_days" integer[] NOT NULL,
	"daily_rate" numeric(12, 8) NOT NULL,
	"overdue_rate" numeric(12, 8) NOT NULL,
	"min_amount" numeric(38, 18) NOT NULL,
	"max_amount" numeric(38, 18) NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "loan_products_amount_range" CHECK ("loan_products"."min_amount" <= "loan_products"."max_amount")
);
--> statement-breakpoint
CREATE TABLE "loan_repayments" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"loan_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"method" text NOT NULL,
	"amount" numeric(38, 18) NOT NULL,
	"late_fees" numeric(38, 18),
	"interest" numeric(38, 18),
	"principal" numeric(38, 18),
	"upload_id" uuid,
	"status" text NOT NULL,
	"reject_reason" text,
	"reviewed_by" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"confirmed_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "loans" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"product_id" bigint NOT NULL,
	"lender" text NOT NULL,
	"currency" text NOT NULL,
	"amount" numeric(38, 18) NOT NULL,
	"cycle_days" integer NOT NULL,
	"daily_rate" numeric(12, 8) NOT NULL,
	"overdue_rate" numeric(12, 8) NOT NULL,
	"interest" numeric(38, 18) NOT NULL,
	"grace_days" integer NOT NULL,
	"late_fees" numeric(38, 18) DEFAULT '0' NOT NULL,
	"overdue_days" integer DEFAULT 0 NOT NULL,
	"paid_principal" numeric(38, 18) DEFAULT '0' NOT NULL,
	"paid_interest" numeric(38, 18) DEFAULT '0' NOT NULL,
	"paid_late_fees" numeric(38, 18) DEFAULT '0' NOT NULL,
	"proofs" jsonb NOT NULL,
	"status" text DEFAULT 'unreviewed' NOT NULL,
	"reject_reason" text,
	"reviewed_by" bigint,
	"applied_at" timestamp with time zone NOT NULL,
	"disbursed_at" timestamp with time zone,
	"start_day" date,
	"due_day" date,
	"cleared_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "loans_paid_principal" CHECK ("loans"."paid_principal" >= 0 and "loans"."paid_principal" <= "loans"."amount"),
	CONSTRAINT "loans_paid_interest" CHECK ("loans"."paid_interest" >= 0 and "loans"."paid_interest" <= "loans"."interest"),
	CONSTRAINT "loans_paid_late_fees" CHECK ("loans"."paid_late_fees" >= 0 and "loans"."paid_late_fees" <= "loans"."late_fees")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "loan_late_fee_days_loan_day" ON "loan_late_fee_days" USING btree ("loan_id","day");--> statement-breakpoint
CREATE INDEX "loan_repayments_loan_idx" ON "loan_repayments" USING btree ("loan_id","id");--> statement-breakpoint
CREATE INDEX "loan_repayments_status_idx" ON "loan_repayments" USING btree ("status","id");--> statement-breakpoint
CREATE INDEX "loans_user_idx" ON "loans" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "loans_status_idx" ON "loans" USING btree ("status","id");