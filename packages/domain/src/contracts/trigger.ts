import { isLiquidatable, limitCrossed, stopLossHit, takeProfitHit } from "@northstar/shared/contract-math";
import type { TContractPositionView } from "@northstar/shared/contracts/contracts";
import { MoneyDecimal } from "@northstar/shared/money";
import { contractPositionMachine } from "@northstar/shared/state-machines";
import { eq } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { transition } from "../state/index.ts";
import { applyClose, type CloseReason } from "./apply-close.ts";
import { type ContractPositionRow, contractPositions } from "./contracts.table.ts";
import { postFill } from "./money-moves.ts";
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

export type TriggerResult =
  | { state: "triggered"; kind: TriggerKind; position: TContractPositionView; userId: number }
  | { state: "none"; position: ContractPositionRow | null };

/**
 * Applies what `tick` does to one position, in its own transaction with the row locked: fills a
 * pending limit order at its price, or closes a holding position at the tick's price (TP, SL,
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
      const set = {
        entryPrice: row.limitPrice,
        openFee: row.heldFee,
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
      await postFill(tx, row, row.heldFee);
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
