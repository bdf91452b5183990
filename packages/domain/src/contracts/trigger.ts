import {
  type CloseSettlement,
  isLiquidatable,
  limitCrossed,
  limitFillFee,
  limitFillPrice,
  settleClose,
  stopLossHit,
  takeProfitHit,
} from "@northstar/shared/contract-math";
import type { TContractPositionView } from "@northstar/shared/contracts/contracts";
import { MoneyDecimal } from "@northstar/shared/money";
import { type ContractPositionStatus, contractPositionMachine } from "@northstar/shared/state-machines";
import { asc, eq, inArray } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { accountIdCache, type EntryInput, postEntries } from "../ledger/index.ts";
import { transition, transitionMany } from "../state/index.ts";
import { applyClose, type CloseReason, closeValues, endValues } from "./apply-close.ts";
import { type ContractPositionRow, contractCloses, contractPositions } from "./contracts.table.ts";
import { closeEntry, fillEntry, postFill } from "./money-moves.ts";
import { positionTerms, toPositionView } from "./position-view.ts";
import type { ContractTick } from "./ticks.ts";

export type TriggerKind = "fill" | CloseReason;

/** What a tick does to a position, decided from the row alone (no I/O): the engine's rule. */
export function triggerAt(row: ContractPositionRow, price: string): TriggerKind | null {
  if (row.status === "pending") {
    return row.limitPrice && limitCrossed(row.side, row.limitPrice, price) ? "fill" : null;
  }
  if (row.status !== "holding" || !row.entryPrice || new MoneyDecimal(row.lots).isZero()) {
    return null;
  }
  // Liquidation first: a tick past both the stop-loss and the liquidation price liquidates.
  if (isLiquidatable(positionTerms(row), price)) {
    return "liquidation";
  }
  if (row.stopLoss && stopLossHit(row.side, row.stopLoss, price)) {
    return "stop_loss";
  }
  if (row.takeProfit && takeProfitHit(row.side, row.takeProfit, price)) {
    return "take_profit";
  }
  return null;
}

/**
 * What a pending limit order fills at on a crossing tick: the better of its limit and the tick, and
 * the fee at that price (never above the fee held for it).
 */
export function fillOf(row: ContractPositionRow, tick: ContractTick): { price: string; fee: string } {
  const price = limitFillPrice(row.side, row.limitPrice as string, tick.price);
  return { price, fee: limitFillFee(price, row.lots, row.contractSize, row.feeRate, row.heldFee) };
}

export type TriggerResult =
  | { state: "triggered"; kind: TriggerKind; position: TContractPositionView; userId: number }
  | { state: "none"; position: ContractPositionRow | null };

/**
 * Applies what `tick` does to one position, in its own transaction with the row locked: fills a
 * pending limit order at the better of its limit and the tick, or closes a holding position at the tick's price (TP, SL,
 * liquidation), recording the tick. A tick not after the position's opening tick does nothing, and
 * a position already changed by someone else is re-read, so a trigger delivered twice (an engine
 * restarted mid-stream, a standby replaying ticks) applies once.
 */
export async function applyTick(db: Db, positionId: number, tick: ContractTick): Promise<TriggerResult> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(contractPositions)
      .where(eq(contractPositions.id, positionId))
      .for("update");
    if (!row || row.symbol !== tick.symbol) {
      return { state: "none", position: row ?? null };
    }
    if (row.openTickId !== null && tick.id <= row.openTickId) {
      return { state: "none", position: row };
    }
    const kind = triggerAt(row, tick.price);
    if (!kind) {
      return { state: "none", position: row };
    }
    if (kind === "fill") {
      const { price, fee } = fillOf(row, tick);
      const set = {
        entryPrice: price,
        openFee: fee,
        heldFee: "0",
        openTickId: tick.id,
        openedAt: tick.time,
        updatedAt: new Date(),
      };
      const moved = await transition(tx, {
        machine: contractPositionMachine,
        table: contractPositions,
        id: row.id,
        from: "pending",
        to: "holding",
        by: "system",
        set,
      });
      if (!moved) {
        return { state: "none", position: row };
      }
      await postFill(tx, row, row.heldFee, fee);
      return {
        state: "triggered",
        kind,
        position: toPositionView({ ...row, ...set, status: "holding" }),
        userId: row.userId,
      };
    }
    const position = await applyClose(tx, row, {
      closeLots: row.lots,
      price: new MoneyDecimal(tick.price).toFixed(),
      tickId: tick.id,
      reason: kind,
      by: "system",
      at: tick.time,
    });
    return { state: "triggered", kind, position, userId: row.userId };
  });
}

/** A fill or close the batch committed, and the tick that triggered it. */
export interface Triggered {
  kind: TriggerKind;
  position: TContractPositionView;
  userId: number;
}

export interface BatchTriggered extends Triggered {
  tick: ContractTick;
}

/**
 * Applies a run of ticks (in id order) to the positions each one may cross (`candidates`: tick id →
 * position ids), in one transaction and a fixed number of statements: one locked read of the
 * positions (rows another transaction holds are skipped, not waited for, and returned in `skipped`
 * for the caller to apply one by one), the exact rule on each position with each of its ticks in
 * order (the first that triggers wins), one insert of the closes, one compare-and-set state update
 * per kind (fills, closes) through the state machine, and one ledger write. Every close is at its
 * tick's price and keeps that tick's id; a tick not after a position's opening tick does nothing to
 * it, and a position already closed is left alone, so ticks applied twice change nothing.
 */
export async function applyTicksBatch(
  db: Db,
  ticks: ContractTick[],
  candidates: Map<number, number[]>,
): Promise<{ triggered: BatchTriggered[]; skipped: number[] }> {
  const ids = [...new Set([...candidates.values()].flat())].sort((a, b) => a - b);
  if (ids.length === 0) {
    return { triggered: [], skipped: [] };
  }
  return db.transaction(async (tx) => {
    const rows = await tx
      .select()
      .from(contractPositions)
      .where(inArray(contractPositions.id, ids))
      .orderBy(asc(contractPositions.id))
      .for("update", { skipLocked: true });
    const byId = new Map(rows.map((r) => [r.id, r]));
    const skipped = ids.filter((id) => !byId.has(id));
    const decided = new Set<number>();
    const fills: { row: ContractPositionRow; tick: ContractTick }[] = [];
    const closes: {
      row: ContractPositionRow;
      kind: CloseReason;
      s: CloseSettlement;
      tick: ContractTick;
      price: string;
    }[] = [];
    for (const tick of ticks) {
      for (const id of candidates.get(tick.id) ?? []) {
        const row = byId.get(id);
        if (!row || decided.has(id) || row.symbol !== tick.symbol) {
          continue;
        }
        if (row.openTickId !== null && tick.id <= row.openTickId) {
          continue;
        }
        const kind = triggerAt(row, tick.price);
        if (!kind) {
          continue;
        }
        decided.add(id);
        if (kind === "fill") {
          fills.push({ row, tick });
        } else if (row.entryPrice) {
          const price = new MoneyDecimal(tick.price).toFixed();
          const s = settleClose({
            side: row.side,
            entryPrice: row.entryPrice,
            exitPrice: price,
            closeLots: row.lots,
            lots: row.lots,
            contractSize: row.contractSize,
            margin: row.margin,
            feeRate: row.feeRate,
          });
          closes.push({ row, kind, s, tick, price });
        }
      }
    }
    const entries: EntryInput[] = [];
    const triggered: BatchTriggered[] = [];
    if (closes.length > 0) {
      const inserted = await tx
        .insert(contractCloses)
        .values(
          closes.map(({ row, kind, s, tick, price }) => ({
            positionId: row.id,
            userId: row.userId,
            book: row.book,
            symbol: row.symbol,
            lots: row.lots,
            price,
            tickId: tick.id,
            reason: kind,
            pnl: s.pnl,
            fee: s.fee,
            payout: s.payout,
            shortfall: s.shortfall,
            createdAt: tick.time,
          })),
        )
        .returning({ id: contractCloses.id, positionId: contractCloses.positionId });
      const closeIds = new Map(inserted.map((c) => [c.positionId, c.id]));
      const ended = closes.map(({ row, kind, s, tick, price }) => {
        const { values } = closeValues(row, s, { closeLots: row.lots, price });
        const to: ContractPositionStatus = kind === "liquidation" ? "liquidated" : "closed";
        return {
          row,
          kind,
          s,
          tick,
          to,
          values: endValues(values, { reason: kind, tickId: tick.id, at: tick.time }),
        };
      });
      const moved = await transitionMany(tx, {
        machine: contractPositionMachine,
        table: "contract_positions",
        by: "system",
        columns: {
          lots: "numeric",
          margin: "numeric",
          close_fee: "numeric",
          realised_pnl: "numeric",
          exit_price: "numeric",
          close_reason: "text",
          close_tick_id: "bigint",
          closed_at: "timestamptz",
        },
        rows: ended.map(({ row, to, values }) => ({
          id: row.id,
          from: "holding" as const,
          to,
          values: {
            lots: values.lots,
            margin: values.margin,
            close_fee: values.closeFee,
            realised_pnl: values.realisedPnl,
            exit_price: values.exitPrice,
            close_reason: values.closeReason,
            close_tick_id: values.closeTickId,
            closed_at: values.closedAt.toISOString(),
          },
        })),
      });
      if (moved.size !== ended.length) {
        // The rows are locked by this transaction: a lost compare-and-set means something is wrong.
        throw new Error("contract trigger batch: a locked position changed state");
      }
      for (const { row, kind, s, tick, to, values } of ended) {
        entries.push(closeEntry(row, closeIds.get(row.id) as number, s, `contract.close.${kind}`));
        triggered.push({
          kind,
          tick,
          position: toPositionView({ ...row, ...values, status: to }),
          userId: row.userId,
        });
      }
    }
    if (fills.length > 0) {
      const at = new Date();
      const moved = await transitionMany(tx, {
        machine: contractPositionMachine,
        table: "contract_positions",
        by: "system",
        columns: {
          entry_price: "numeric",
          open_fee: "numeric",
          held_fee: "numeric",
          open_tick_id: "bigint",
          opened_at: "timestamptz",
        },
        rows: fills.map(({ row, tick }) => ({
          id: row.id,
          from: "pending" as const,
          to: "holding" as const,
          values: {
            entry_price: fillOf(row, tick).price,
            open_fee: fillOf(row, tick).fee,
            held_fee: "0",
            open_tick_id: tick.id,
            opened_at: tick.time.toISOString(),
          },
        })),
      });
      if (moved.size !== fills.length) {
        throw new Error("contract trigger batch: a locked order changed state");
      }
      for (const { row, tick } of fills) {
        const { price, fee } = fillOf(row, tick);
        const entry = fillEntry(row, row.heldFee, fee);
        if (entry) {
          entries.push(entry);
        }
        const set = {
          entryPrice: price,
          openFee: fee,
          heldFee: "0",
          openTickId: tick.id,
          openedAt: tick.time,
          updatedAt: at,
        };
        triggered.push({
          kind: "fill",
          tick,
          position: toPositionView({ ...row, ...set, status: "holding" }),
          userId: row.userId,
        });
      }
    }
    await postEntries(tx, entries, accountIdCache(db));
    return { triggered, skipped };
  });
}
