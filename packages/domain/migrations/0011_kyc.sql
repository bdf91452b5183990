CREATE TABLE "kyc_applications" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"level" text NOT NULL,
	"status" text DEFAULT 'under_review' NOT NULL,
	"details" jsonb NOT NULL,
	"photos" jsonb NOT NULL,
	"reject_reason" text,
	"reject_note" text,
	"assessment_points" integer,
	"reviewed_by" bigint,
	"reviewed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "risk_assessments" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"answers" jsonb NOT NULL,
	"score" integer NOT NULL,
	"level" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "kyc_applications_open_key" ON "kyc_applications" USING btree ("user_id","level") WHERE "kyc_applications"."status" <> 'rejected';--> statement-breakpoint
CREATE INDEX "kyc_applications_user_idx" ON "kyc_applications" USING btree ("user_id","level","id");--> statement-breakpoint
CREATE INDEX "kyc_applications_status_idx" ON "kyc_applications" USING btree ("status","id");--> statement-breakpoint
CREATE INDEX "risk_assessments_user_idx" ON "risk_assessments" USING btree ("user_id","id");