ALTER TABLE "contract_positions" ADD COLUMN "trigger_below" numeric(38, 18) GENERATED ALWAYS AS (case
        when status = 'pending' and side = 'long' then limit_price
        when status = 'holding' and side = 'long' then greatest(case when entry_price is not null and lots * contract_size > 0 and maintenance_rate < 1 then ((entry_price * (lots * contract_size) - margin + 0.00000002) / ((lots * contract_size) * (1 - maintenance_rate))) * 1.000000000001 + 0.000000000001 end, stop_loss)
        when status = 'holding' and side = 'short' then take_profit
      end) STORED;--> statement-breakpoint
ALTER TABLE "contract_positions" ADD COLUMN "trigger_above" numeric(38, 18) GENERATED ALWAYS AS (case
        when status = 'pending' and side = 'short' then limit_price
        when status = 'holding' and side = 'short' then least(case when entry_price is not null and lots * contract_size > 0 and maintenance_rate < 1 then ((entry_price * (lots * contract_size) + margin - 0.00000002) / ((lots * contract_size) * (1 + maintenance_rate))) * 0.999999999999 - 0.000000000001 end, stop_loss)
        when status = 'holding' and side = 'long' then take_profit
      end) STORED;--> statement-breakpoint
ALTER TABLE "contract_positions" ADD COLUMN "risk_watched" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "contract_closes_tick_idx" ON "contract_closes" USING btree ("tick_id");--> statement-breakpoint
CREATE INDEX "contract_positions_open_tick_idx" ON "contract_positions" USING btree ("open_tick_id");--> statement-breakpoint
CREATE INDEX "contract_positions_trigger_below_idx" ON "contract_positions" USING btree ("symbol","trigger_below") WHERE "contract_positions"."trigger_below" is not null;--> statement-breakpoint
CREATE INDEX "contract_positions_trigger_above_idx" ON "contract_positions" USING btree ("symbol","trigger_above") WHERE "contract_positions"."trigger_above" is not null;--> statement-breakpoint
CREATE INDEX "contract_positions_unwatched_idx" ON "contract_positions" USING btree ("id") WHERE not "contract_positions"."risk_watched" and "contract_positions"."status" in ('pending', 'holding');--> statement-breakpoint
CREATE INDEX "contract_ticks_symbol_id_idx" ON "contract_ticks" USING btree ("symbol","id");--> statement-breakpoint
-- Positions live before this change were already in the risk engine's index: taken in.
UPDATE "contract_positions" SET "risk_watched" = true WHERE "status" in ('pending', 'holding');
