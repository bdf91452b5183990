import { isMarketOpen } from "@northstar/shared/markets";
import { and, asc, eq, inArray, max, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { shardOf } from "../leases/index.ts";
import {
  type ContractPositionRow,
  contractEngineCursor,
  contractPositions,
  contractTicks,
} from "./contracts.table.ts";
import { listContractProducts } from "./products.ts";
import { type ContractTick, contractTicksAfter } from "./ticks.ts";
import { applyTick, applyTicksBatch, type Triggered, type TriggerKind, triggerAt } from "./trigger.ts";

export interface RiskEngineOptions {
  /** The cursor's name: one per engine deployment. */
  name?: string;
  log?: (line: string) => void;
  /** Told of each fill and close it commits (the worker publishes it on the user's channel). */
  onTriggered?: (kind: TriggerKind, position: Triggered["position"], userId: number, tickId: number) => void;
  /** Ticks read per step. */
  batch?: number;
  /** Positions applied per transaction (one locked read, one state update, one ledger write each). */
  closeBatch?: number;
  /**
   * The shard this engine serves: the instruments whose `shardOf(symbol, count)` is `index`, with a
   * cursor of its own (`<name>:<index>/<count>`). Omitted, it serves every instrument.
   */
  shard?: { index: number; count: number };
}

/**
 * The SQL test of whether `symbol` falls in shard `index` of `count`: the same first four bytes of
 * its SHA-256 as `shardOf`.
 */
function inShardSql(symbol: unknown, shard: { index: number; count: number }) {
  return sql`(('x' || substr(encode(sha256(convert_to(${symbol}, 'UTF8')), 'hex'), 1, 8))::bit(32)::bigint % ${shard.count}) = ${shard.index}`;
}

/** Positions taken in (or replayed) per look for positions the engine has not yet seen. */
const WATCH_BATCH = 1000;
/** Candidate ticks read per query while replaying one late position. */
const REPLAY_BATCH = 200;

/**
 * The risk engine: reads the recorded feed ticks in order after its stored cursor and applies what
 * they trigger (pending limit fills, take-profit, stop-loss, liquidation). The positions a batch of
 * ticks crosses are found by one SQL statement over the positions' trigger keys (kept by the
 * database from each row, indexed by instrument and price), then each tick's crossed positions are
 * decided by the exact decimal rule and closed together in one transaction, at that tick's price and
 * keeping its id. The cursor moves after the ticks before it are applied, so an engine stopped
 * mid-stream (or a standby taking over) re-reads from the cursor: a trigger is never missed, and one
 * applied twice changes nothing the second time. Ticks of a closed market are skipped (no
 * liquidation on stale prices).
 *
 * A position enters the set-based search once the engine has taken it in (`risk_watched`): a new
 * position whose opening tick is at or after the cursor is simply marked; one committed after the
 * engine read past its opening tick (a slow transaction, however late) has the ticks it missed
 * replayed in order first. No clock window decides what is seen.
 */
export class ContractRiskEngine {
  private cursor = 0;
  private hours = new Map<string, Parameters<typeof isMarketOpen>[0]>();
  private hoursAt = 0;
  private readonly name: string;
  /** Ticks read, candidates decided and triggers committed, for the bench and health. */
  readonly stats = { ticks: 0, candidates: 0, triggered: 0 };

  /** Whether this engine serves an instrument (all of them without a shard). */
  private readonly serves: (symbol: string) => boolean;
  private readonly sharded: { index: number; count: number } | null;

  constructor(
    private readonly db: Db,
    private readonly options: RiskEngineOptions = {},
  ) {
    const { shard } = options;
    this.sharded = shard && shard.count > 1 ? shard : null;
    const base = options.name ?? "main";
    this.name = this.sharded ? `${base}:${this.sharded.index}/${this.sharded.count}` : base;
    const served = new Map<string, boolean>();
    this.serves = (symbol) => {
      if (!this.sharded) {
        return true;
      }
      let mine = served.get(symbol);
      if (mine === undefined) {
        mine = shardOf(symbol, this.sharded.count) === this.sharded.index;
        served.set(symbol, mine);
      }
      return mine;
    };
  }

  /**
   * Loads the cursor and takes in the live positions. A new engine starts after the latest tick; a
   * new shard's engine (the first start after the shard count changed) starts at the lowest cursor
   * stored, where the engines before it stopped reading: ticks read twice change nothing.
   */
  async start(): Promise<void> {
    const [row] = await this.db
      .select()
      .from(contractEngineCursor)
      .where(eq(contractEngineCursor.name, this.name));
    if (row) {
      this.cursor = row.tickId;
    } else {
      const [latest] = await this.db.select({ id: max(contractTicks.id) }).from(contractTicks);
      const [lowest] = this.sharded
        ? await this.db
            .select({ id: sql<string | null>`min(${contractEngineCursor.tickId})` })
            .from(contractEngineCursor)
        : [];
      this.cursor = Number(lowest?.id ?? latest?.id ?? 0);
      await this.db
        .insert(contractEngineCursor)
        .values({ name: this.name, tickId: this.cursor })
        .onConflictDoNothing();
    }
    await this.watchNew();
  }

  get position(): number {
    return this.cursor;
  }

  /** Live positions the engine watches (those with trigger keys). */
  async watching(): Promise<number> {
    const [row] = await this.db
      .select({ n: sql<number>`count(*)::int` })
      .from(contractPositions)
      .where(
        and(
          eq(contractPositions.riskWatched, true),
          inArray(contractPositions.status, ["pending", "holding"]),
          this.sharded ? inShardSql(contractPositions.symbol, this.sharded) : undefined,
        ),
      );
    return row?.n ?? 0;
  }

  /**
   * Takes in the live positions not yet watched: those opened at or after the cursor are marked in
   * one statement; one whose opening tick is before the cursor first has the ticks it missed replayed.
   */
  async watchNew(): Promise<void> {
    for (;;) {
      const rows = await this.db
        .select()
        .from(contractPositions)
        .where(
          and(
            eq(contractPositions.riskWatched, false),
            inArray(contractPositions.status, ["pending", "holding"]),
            // Another shard's engine takes in the positions of its instruments.
            this.sharded ? inShardSql(contractPositions.symbol, this.sharded) : undefined,
          ),
        )
        .orderBy(asc(contractPositions.id))
        .limit(WATCH_BATCH);
      for (const row of rows) {
        if (row.openTickId !== null && row.openTickId < this.cursor) {
          await this.replay(row);
        }
      }
      if (rows.length > 0) {
        await this.db
          .update(contractPositions)
          .set({ riskWatched: true })
          .where(
            inArray(
              contractPositions.id,
              rows.map((r) => r.id),
            ),
          );
      }
      if (rows.length < WATCH_BATCH) {
        return;
      }
    }
  }

  /** Applies to one position, in order, the ticks of its instrument from its opening up to the cursor. */
  private async replay(first: ContractPositionRow): Promise<void> {
    let after = first.openTickId ?? 0;
    for (;;) {
      const [row] = await this.db.select().from(contractPositions).where(eq(contractPositions.id, first.id));
      if (!row || (row.status !== "pending" && row.status !== "holding")) {
        return;
      }
      // Only the ticks that cross the position's keys can trigger: the same search as a step.
      const ticks = await this.db
        .select({
          id: contractTicks.id,
          symbol: contractTicks.symbol,
          price: contractTicks.price,
          time: contractTicks.time,
        })
        .from(contractTicks)
        .where(
          sql`${contractTicks.symbol} = ${row.symbol} and ${contractTicks.id} > ${after}
            and ${contractTicks.id} <= ${this.cursor}
            and (${contractTicks.price} <= ${row.triggerBelow} or ${contractTicks.price} >= ${row.triggerAbove})`,
        )
        .orderBy(asc(contractTicks.id))
        .limit(REPLAY_BATCH);
      let changed = false;
      for (const tick of ticks) {
        after = tick.id;
        if (!triggerAt(row, tick.price) || !(await this.isOpen(tick.symbol, tick.time))) {
          continue;
        }
        const result = await applyTick(this.db, row.id, tick);
        if (result.state === "triggered") {
          this.triggered(result, tick);
        }
        // A fill gives the position new keys; a close ends it: read it again either way.
        changed = true;
        break;
      }
      if (!changed && ticks.length < REPLAY_BATCH) {
        return;
      }
    }
  }

  private triggered(t: Triggered, tick: ContractTick): void {
    this.stats.triggered++;
    this.options.onTriggered?.(t.kind, t.position, t.userId, tick.id);
  }

  private async isOpen(symbol: string, at: Date): Promise<boolean> {
    if (Date.now() - this.hoursAt > 10_000) {
      const products = await listContractProducts(this.db, new Date(), { withDisabled: true });
      this.hours = new Map(products.map((p) => [p.symbol, p.tradingHours]));
      this.hoursAt = Date.now();
    }
    const hours = this.hours.get(symbol);
    return hours ? isMarketOpen(hours, at) : false;
  }

  /**
   * The watched positions each tick crosses, in one statement for the whole batch of ticks: per
   * tick, the positions of its instrument whose `trigger_below` is at or above its price or whose
   * `trigger_above` is at or below it (two index range scans), opened before the tick. The opening
   * tick is compared as an expression so the planner filters on it rather than scanning its index.
   */
  private async crossings(ticks: ContractTick[]): Promise<Map<number, number[]>> {
    const byTick = new Map<number, number[]>();
    if (ticks.length === 0) {
      return byTick;
    }
    // Arrays rather than a JSON set: the planner sees their length, so a few live ticks are not
    // priced like a hundred (which would trip the JIT compiler, costing far more than the lookups).
    const found = await this.db.execute<{ tick_id: string; position_id: string }>(sql`
      select v.id as tick_id, p.id as position_id
      from unnest(${sql.param(ticks.map((t) => t.id))}::bigint[], ${sql.param(ticks.map((t) => t.symbol))}::text[],
        ${sql.param(ticks.map((t) => t.price))}::numeric[]) as v(id, symbol, price)
      cross join lateral (
        select c.id from contract_positions c
        where c.symbol = v.symbol and c.trigger_below >= v.price and c.risk_watched
          and coalesce(c.open_tick_id, 0) < v.id
        union
        select c.id from contract_positions c
        where c.symbol = v.symbol and c.trigger_above <= v.price and c.risk_watched
          and coalesce(c.open_tick_id, 0) < v.id
      ) p
      order by v.id, p.id`);
    for (const row of found.rows) {
      const tickId = Number(row.tick_id);
      let ids = byTick.get(tickId);
      if (!ids) {
        ids = [];
        byTick.set(tickId, ids);
      }
      ids.push(Number(row.position_id));
    }
    return byTick;
  }

  /** Applies the next batch of recorded ticks; returns how many were read. */
  async step(): Promise<number> {
    await this.watchNew();
    const ticks = await contractTicksAfter(this.db, this.cursor, this.options.batch ?? 5000);
    const open: ContractTick[] = [];
    for (const tick of ticks) {
      // Another shard's ticks are read past: its own engine applies them.
      if (this.serves(tick.symbol) && (await this.isOpen(tick.symbol, tick.time))) {
        open.push(tick);
      }
    }
    const byTick = await this.crossings(open);
    // Positions are independent (isolated margin): they are split into groups of `closeBatch`, each
    // group applied with all of the batch's ticks in one transaction.
    const ids = [...new Set([...byTick.values()].flat())].sort((a, b) => a - b);
    this.stats.candidates += ids.length;
    const size = this.options.closeBatch ?? 1000;
    let firstFill: number | undefined;
    for (let i = 0; i < ids.length; i += size) {
      const group = new Set(ids.slice(i, i + size));
      const candidates = new Map<number, number[]>();
      for (const [tickId, crossed] of byTick) {
        const mine = crossed.filter((id) => group.has(id));
        if (mine.length > 0) {
          candidates.set(tickId, mine);
        }
      }
      const { triggered, skipped } = await applyTicksBatch(this.db, open, candidates);
      for (const t of triggered) {
        if (t.kind === "fill") {
          firstFill = Math.min(firstFill ?? t.tick.id, t.tick.id);
        }
        this.triggered(t, t.tick);
      }
      // Held by another transaction (a user's close or margin change): waited for, one by one.
      for (const id of skipped) {
        for (const tick of open) {
          if (!byTick.get(tick.id)?.includes(id)) {
            continue;
          }
          const result = await applyTick(this.db, id, tick);
          if (result.state === "triggered") {
            if (result.kind === "fill") {
              firstFill = Math.min(firstFill ?? tick.id, tick.id);
            }
            this.triggered(result, tick);
            break;
          }
        }
      }
    }
    // A fill gives its position new keys the batch's search did not know: the ticks after it are
    // searched again (positions already closed by them are no longer live, so nothing doubles).
    const last = firstFill ?? ticks.at(-1)?.id;
    if (last === undefined) {
      return 0;
    }
    this.cursor = last;
    await this.db
      .update(contractEngineCursor)
      .set({ tickId: last, updatedAt: new Date() })
      .where(eq(contractEngineCursor.name, this.name));
    const read = ticks.filter((t) => t.id <= last).length;
    this.stats.ticks += read;
    return read;
  }

  /** Steps until no tick is left (tests, catch-up after a takeover). */
  async drain(): Promise<void> {
    while ((await this.step()) > 0) {
      // keep reading
    }
  }
}
