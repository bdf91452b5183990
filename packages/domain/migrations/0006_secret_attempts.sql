CREATE TABLE "secret_attempts" (
	"subject" text NOT NULL,
	"kind" text NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"locked_until" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "secret_attempts_subject_kind_pk" PRIMARY KEY("subject","kind")
);
--> statement-breakpoint
ALTER TABLE "user_totp" ADD COLUMN "last_step" bigint;