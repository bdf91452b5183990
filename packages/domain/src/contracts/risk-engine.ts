import { liquidationPrice } from "@northstar/shared/contract-math";
import type { TContractPositionView } from "@northstar/shared/contracts/contracts";
import { isMarketOpen } from "@northstar/shared/markets";
import { asc, gt, inArray, max, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import {
  type ContractPositionRow,
  contractEngineCursor,
  contractPositions,
  contractTicks,
} from "./contracts.table.ts";
import { positionTerms } from "./position-view.ts";
import { listContractProducts } from "./products.ts";
import { RiskIndex, type TriggerKeys } from "./risk-index.ts";
import { type ContractTick, contractTicksAfter } from "./ticks.ts";
import { applyTick, type TriggerKind, triggerAt } from "./trigger.ts";

/** A liquidation key is moved this much towards the current price, so rounding never hides a crossing. */
const NUDGE = 1e-6;
/** Rows changed this long before the last look are read again (a transaction may commit late). */
const CHANGE_LAG_MS = 5000;

/** The trigger keys of a live position (see RiskIndex). */
export function triggerKeys(row: ContractPositionRow): TriggerKeys {
  const keys: TriggerKeys = { below: [], above: [] };
  const long = row.side === "long";
  if (row.status === "pending") {
    (long ? keys.below : keys.above).push(Number(row.limitPrice));
    return keys;
  }
  const liq = Number(liquidationPrice(positionTerms(row)));
  if (long) {
    keys.below.push(liq * (1 + NUDGE) + NUDGE);
  } else {
    keys.above.push(liq * (1 - NUDGE));
  }
  if (row.stopLoss) {
    (long ? keys.below : keys.above).push(Number(row.stopLoss));
  }
  if (row.takeProfit) {
    (long ? keys.above : keys.below).push(Number(row.takeProfit));
  }
  return keys;
}

export interface RiskEngineOptions {
  /** The cursor's name: one per engine deployment. */
  name?: string;
  log?: (line: string) => void;
  /** Told of each fill and close it commits (the worker publishes it on the user's channel). */
  onTriggered?: (kind: TriggerKind, position: TContractPositionView, userId: number) => void;
  /** Ticks read per step. */
  batch?: number;
  /** Crossed positions of one tick applied at once (each its own transaction); keep below the pool size. */
  parallel?: number;
}

/**
 * The risk engine: reads the recorded feed ticks in order after its stored cursor, and for each one
 * applies what it triggers (pending limit fills, take-profit, stop-loss, liquidation) to only the
 * positions the tick crosses, found through the in-memory index. Each trigger commits in its own
 * transaction with the position locked and re-checked, keeping the tick's id. The cursor moves after
 * the ticks before it are applied, so an engine stopped mid-stream (or a standby taking over)
 * re-reads from the cursor: a trigger is never missed, and one applied twice changes nothing the
 * second time. Ticks of a closed market are skipped (no liquidation on stale prices).
 */
export class ContractRiskEngine {
  readonly index = new RiskIndex();
  private cursor = 0;
  private changedSince = new Date(0);
  private hours = new Map<string, Parameters<typeof isMarketOpen>[0]>();
  private hoursAt = 0;
  private readonly name: string;
  /** Positions evaluated (those of a ticking instrument) and ticks read, for the bench and health. */
  readonly stats = { ticks: 0, evaluated: 0, triggered: 0 };

  constructor(
    private readonly db: Db,
    private readonly options: RiskEngineOptions = {},
  ) {
    this.name = options.name ?? "main";
  }

  /** Loads the cursor (a new engine starts after the latest tick) and every live position. */
  async start(): Promise<void> {
    const [row] = await this.db
      .select()
      .from(contractEngineCursor)
      .where(sql`${contractEngineCursor.name} = ${this.name}`);
    if (row) {
      this.cursor = row.tickId;
    } else {
      const [latest] = await this.db.select({ id: max(contractTicks.id) }).from(contractTicks);
      this.cursor = Number(latest?.id ?? 0);
      await this.db
        .insert(contractEngineCursor)
        .values({ name: this.name, tickId: this.cursor })
        .onConflictDoNothing();
    }
    const started = new Date();
    let after = 0;
    for (;;) {
      const rows = await this.db
        .select()
        .from(contractPositions)
        .where(
          sql`${contractPositions.status} in ('pending', 'holding') and ${contractPositions.id} > ${after}`,
        )
        .orderBy(asc(contractPositions.id))
        .limit(10_000);
      for (const r of rows) {
        this.index.upsert(r.id, r.symbol, triggerKeys(r));
      }
      if (rows.length < 10_000) {
        break;
      }
      after = (rows.at(-1) as ContractPositionRow).id;
    }
    this.changedSince = new Date(started.getTime() - CHANGE_LAG_MS);
  }

  get position(): number {
    return this.cursor;
  }

  /** Re-reads positions changed since the last look (opened, closed, margin or TP/SL changed). */
  async refresh(): Promise<void> {
    const since = this.changedSince;
    const lookedAt = new Date();
    const rows = await this.db
      .select()
      .from(contractPositions)
      .where(gt(contractPositions.updatedAt, since))
      .orderBy(asc(contractPositions.id));
    for (const r of rows) {
      const fresh = !this.index.has(r.id) && (r.status === "pending" || r.status === "holding");
      if (fresh && r.openTickId !== null && r.openTickId < this.cursor) {
        // Committed after the engine read past its opening tick: the ticks it missed are replayed.
        await this.catchUp(r);
      } else {
        this.reindex(r);
      }
    }
    this.changedSince = new Date(lookedAt.getTime() - CHANGE_LAG_MS);
  }

  /** Applies to one position, in order, the ticks of its instrument from its opening up to the cursor. */
  private async catchUp(row: ContractPositionRow): Promise<void> {
    let current: ContractPositionRow | undefined = row;
    const ticks = await this.db
      .select({
        id: contractTicks.id,
        symbol: contractTicks.symbol,
        price: contractTicks.price,
        time: contractTicks.time,
      })
      .from(contractTicks)
      .where(
        sql`${contractTicks.symbol} = ${row.symbol} and ${contractTicks.id} > ${row.openTickId ?? 0} and ${contractTicks.id} <= ${this.cursor}`,
      )
      .orderBy(asc(contractTicks.id))
      .limit(50_000);
    for (const tick of ticks) {
      if (!current || (current.status !== "pending" && current.status !== "holding")) {
        break;
      }
      if (!triggerAt(current, tick.price) || !(await this.isOpen(tick.symbol, tick.time))) {
        continue;
      }
      const result = await applyTick(this.db, current.id, tick);
      if (result.state === "triggered") {
        this.stats.triggered++;
        this.options.onTriggered?.(result.kind, result.position, result.userId);
      }
      [current] = await this.db
        .select()
        .from(contractPositions)
        .where(inArray(contractPositions.id, [row.id]));
    }
    this.reindex(current, row.id);
  }

  private reindex(row: ContractPositionRow | null | undefined, id?: number): void {
    if (row && (row.status === "pending" || row.status === "holding")) {
      this.index.upsert(row.id, row.symbol, triggerKeys(row));
    } else if (row || id !== undefined) {
      this.index.remove(row?.id ?? (id as number));
    }
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

  /** Applies the next batch of recorded ticks; returns how many were read. */
  async step(): Promise<number> {
    await this.refresh();
    const ticks = await contractTicksAfter(this.db, this.cursor, this.options.batch ?? 5000);
    for (const tick of ticks) {
      this.stats.ticks++;
      if (!(await this.isOpen(tick.symbol, tick.time))) {
        continue;
      }
      this.stats.evaluated += this.index.countOn(tick.symbol);
      const ids = this.index.crossed(tick.symbol, Number(tick.price));
      // Positions are independent (a transaction and a row lock each): those one tick crosses are
      // applied a few at a time; the next tick waits for all of them, so ticks stay in order.
      const parallel = this.options.parallel ?? 8;
      for (let i = 0; i < ids.length; i += parallel) {
        await Promise.all(ids.slice(i, i + parallel).map((id) => this.apply(id, tick)));
      }
    }
    const last = ticks.at(-1);
    if (last) {
      this.cursor = last.id;
      await this.db
        .update(contractEngineCursor)
        .set({ tickId: last.id, updatedAt: new Date() })
        .where(sql`${contractEngineCursor.name} = ${this.name}`);
    }
    return ticks.length;
  }

  private async apply(id: number, tick: ContractTick): Promise<void> {
    const result = await applyTick(this.db, id, tick);
    if (result.state === "triggered") {
      this.stats.triggered++;
      this.options.onTriggered?.(result.kind, result.position, result.userId);
      const [row] = await this.db
        .select()
        .from(contractPositions)
        .where(inArray(contractPositions.id, [id]));
      this.reindex(row, id);
    } else {
      this.reindex(result.position, id);
    }
  }

  /** Steps until no tick is left (tests, catch-up after a takeover). */
  async drain(): Promise<void> {
    while ((await this.step()) > 0) {
      // keep reading
    }
  }
}
