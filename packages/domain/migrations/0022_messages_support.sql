CREATE TABLE "user_messages" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"params" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"event_key" text NOT NULL,
	"read_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "support_conversations" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"user_unread" integer DEFAULT 0 NOT NULL,
	"operator_unread" integer DEFAULT 0 NOT NULL,
	"last_message_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "support_conversations_userId_unique" UNIQUE("user_id"),
	CONSTRAINT "support_conversations_unread" CHECK ("support_conversations"."user_unread" >= 0 and "support_conversations"."operator_unread" >= 0)
);
--> statement-breakpoint
CREATE TABLE "support_messages" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"conversation_id" bigint NOT NULL,
	"author" text NOT NULL,
	"operator_id" bigint,
	"body" text DEFAULT '' NOT NULL,
	"upload_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "support_messages_content" CHECK ("support_messages"."body" <> '' or "support_messages"."upload_id" is not null)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "user_messages_event_key" ON "user_messages" USING btree ("user_id","event_key");--> statement-breakpoint
CREATE INDEX "user_messages_user_id" ON "user_messages" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "user_messages_unread" ON "user_messages" USING btree ("user_id") WHERE "user_messages"."read_at" is null;--> statement-breakpoint
CREATE INDEX "support_conversations_last" ON "support_conversations" USING btree ("last_message_at","id");--> statement-breakpoint
CREATE INDEX "support_messages_conversation" ON "support_messages" USING btree ("conversation_id","id");