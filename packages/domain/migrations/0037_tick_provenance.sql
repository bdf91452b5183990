ALTER TABLE "contract_overnight" ADD COLUMN "tick_id" bigint;--> statement-breakpoint
ALTER TABLE "contract_ticks" ADD COLUMN "source" text;--> statement-breakpoint
ALTER TABLE "contract_ticks" ADD COLUMN "source_symbol" text;--> statement-breakpoint
ALTER TABLE "contract_ticks" ADD COLUMN "source_time" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "contract_ticks" ADD COLUMN "source_id" text;--> statement-breakpoint
ALTER TABLE "contract_ticks" ADD COLUMN "received_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "option_ticks" ADD COLUMN "source" text;--> statement-breakpoint
ALTER TABLE "option_ticks" ADD COLUMN "source_symbol" text;--> statement-breakpoint
ALTER TABLE "option_ticks" ADD COLUMN "source_time" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "option_ticks" ADD COLUMN "source_id" text;--> statement-breakpoint
ALTER TABLE "option_ticks" ADD COLUMN "received_at" timestamp (3) with time zone;--> statement-breakpoint
CREATE INDEX "contract_overnight_tick_idx" ON "contract_overnight" USING btree ("tick_id");--> statement-breakpoint
CREATE INDEX "spot_trades_book_created_idx" ON "spot_trades" USING btree ("book","created_at");