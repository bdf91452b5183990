import { sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { getPolicy } from "../policy/index.ts";

/** Ticks deleted per statement, so a long backlog never holds one huge transaction. */
const PRUNE_BATCH = 10_000;

/**
 * Deletes recorded ticks older than `contracts.tickRetentionDays`, except those still needed:
 * - every tick a position opened, filled or closed at, or was charged overnight interest at (the
 *   evidence of each trade, trigger and charge);
 * - on each instrument, every tick from the opening tick of its earliest position that is still
 *   open (pending or holding) or was closed within the retention period: the price path that
 *   shows why it was, or was not yet, triggered, and what a late replay or a delivery reads;
 * - every tick a risk engine has not read yet (after the lowest cursor of the engines that ran
 *   within the retention period);
 * - each instrument's latest tick.
 * Batch after batch; returns how many were deleted. Running it twice deletes nothing more.
 */
export async function pruneContractTicks(db: Db, now: Date): Promise<{ deleted: number }> {
  const days = await getPolicy(db, "contracts.tickRetentionDays");
  const cutoff = new Date(now.getTime() - days * 86_400_000);
  let deleted = 0;
  for (;;) {
    const result = await db.execute(sql`
      with engine as (
        -- Cursors of engines that ran within the retention period: one left by an engine of an
        -- earlier shard count holds nothing back (if none ran lately, every cursor counts).
        select coalesce(min(tick_id) filter (where updated_at >= ${cutoff}), min(tick_id), 0) as floor
        from contract_engine_cursor),
      needed as materialized (
        select symbol, min(open_tick_id) as floor from contract_positions
        where open_tick_id is not null
          and (status in ('pending', 'holding') or closed_at >= ${cutoff})
        group by symbol),
      doomed as (
        select t.id from contract_ticks t
        where t.time < ${cutoff}
          and t.id < (select floor from engine)
          and t.id < coalesce((select n.floor from needed n where n.symbol = t.symbol), 9223372036854775807)
          and t.id < (select max(l.id) from contract_ticks l where l.symbol = t.symbol)
          and not exists (select 1 from contract_closes c where c.tick_id = t.id)
          and not exists (select 1 from contract_overnight o where o.tick_id = t.id)
          and not exists (select 1 from contract_positions p where p.open_tick_id = t.id)
        order by t.id
        limit ${PRUNE_BATCH})
      delete from contract_ticks where id in (select id from doomed)`);
    const n = result.rowCount ?? 0;
    deleted += n;
    if (n < PRUNE_BATCH) {
      return { deleted };
    }
  }
}
