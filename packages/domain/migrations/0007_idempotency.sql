CREATE TABLE "idempotent_requests" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"key" text NOT NULL,
	"action" text NOT NULL,
	"request_hash" text NOT NULL,
	"status" text DEFAULT 'running' NOT NULL,
	"answer" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "spot_orders" ADD COLUMN "client_key" text;--> statement-breakpoint
ALTER TABLE "spot_orders" ADD COLUMN "request_hash" text;--> statement-breakpoint
CREATE UNIQUE INDEX "idempotent_requests_user_key_idx" ON "idempotent_requests" USING btree ("user_id","key");--> statement-breakpoint
CREATE INDEX "idempotent_requests_created_idx" ON "idempotent_requests" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "spot_orders_user_client_key_idx" ON "spot_orders" USING btree ("user_id","client_key") WHERE "spot_orders"."client_key" is not null;