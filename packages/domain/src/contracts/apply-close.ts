import { type CloseSettlement, settleClose } from "@northstar/shared/contract-math";
import type { TContractPositionView } from "@northstar/shared/contracts/contracts";
import { MoneyDecimal } from "@northstar/shared/money";
import { type Actor, contractPositionMachine } from "@northstar/shared/state-machines";
import { eq } from "drizzle-orm";
import type { DbOrTx } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { transition } from "../state/index.ts";
import { type ContractPositionRow, contractCloses, contractPositions } from "./contracts.table.ts";
import { postClose } from "./money-moves.ts";
import { toPositionView } from "./position-view.ts";

export type CloseReason = "user" | "take_profit" | "stop_loss" | "liquidation" | "delivery";

/**
 * Closes `closeLots` of a holding position the caller has locked, at `price` from tick `tickId`:
 * records the close, settles it through the ledger (the user never loses more than the margin the
 * close releases) and, when no lots remain, ends the position `closed` or `liquidated` through the
 * state machine. Returns the position as it is after the close.
 */
export async function applyClose(
  tx: DbOrTx,
  row: ContractPositionRow,
  params: {
    closeLots: string;
    price: string;
    tickId: number | null;
    reason: CloseReason;
    by: Actor;
    at: Date;
  },
): Promise<TContractPositionView> {
  if (row.status !== "holding" || !row.entryPrice) {
    throw new AppError("CONTRACT_NOT_HOLDING");
  }
  const s = settleClose({
    side: row.side,
    entryPrice: row.entryPrice,
    exitPrice: params.price,
    closeLots: params.closeLots,
    lots: row.lots,
    contractSize: row.contractSize,
    margin: row.margin,
    feeRate: row.feeRate,
  });
  const [close] = await tx
    .insert(contractCloses)
    .values({
      positionId: row.id,
      userId: row.userId,
      book: row.book,
      symbol: row.symbol,
      lots: params.closeLots,
      price: params.price,
      tickId: params.tickId,
      reason: params.reason,
      pnl: s.pnl,
      fee: s.fee,
      payout: s.payout,
      shortfall: s.shortfall,
      createdAt: params.at,
    })
    .returning({ id: contractCloses.id });
  if (!close) {
    throw new AppError("REQUEST_ERROR");
  }
  await postClose(tx, row, close.id, s, `contract.close.${params.reason}`);
  const { lots, values } = closeValues(row, s, params);
  if (lots.isZero()) {
    const to = params.reason === "liquidation" ? "liquidated" : "closed";
    const ended = endValues(values, params);
    const moved = await transition(tx, {
      machine: contractPositionMachine,
      table: contractPositions,
      id: row.id,
      from: "holding",
      to,
      by: params.by,
      set: ended,
    });
    if (!moved) {
      throw new AppError("CONTRACT_NOT_HOLDING");
    }
    return toPositionView({ ...row, ...ended, status: to });
  }
  await tx.update(contractPositions).set(values).where(eq(contractPositions.id, row.id));
  return toPositionView({ ...row, ...values });
}

/** The position's columns after a close settled as `s` (lots left, margin left, totals, exit price). */
export function closeValues(
  row: ContractPositionRow,
  s: CloseSettlement,
  params: { closeLots: string; price: string },
) {
  const lots = new MoneyDecimal(row.lots).minus(params.closeLots);
  const values = {
    lots: lots.toFixed(),
    margin: new MoneyDecimal(row.margin).minus(s.marginReleased).toFixed(),
    closeFee: new MoneyDecimal(row.closeFee).plus(s.fee).toFixed(),
    // The user's trading result: the PnL as far as the margin bore it.
    realisedPnl: new MoneyDecimal(row.realisedPnl).plus(s.pnl).plus(s.shortfall).toFixed(),
    exitPrice: params.price,
    updatedAt: new Date(),
  };
  return { lots, values };
}

/** A close that leaves no lots also ends the position: why, at which tick and when. */
export function endValues<V>(
  values: V,
  params: { reason: CloseReason; tickId: number | null; at: Date },
): V & { closeReason: CloseReason; closeTickId: number | null; closedAt: Date } {
  return { ...values, closeReason: params.reason, closeTickId: params.tickId, closedAt: params.at };
}
