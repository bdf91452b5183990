import { isLiquidatable, isLotMultiple } from "@northstar/shared/contract-math";
import type {
  TAdjustMarginRequest,
  TCloseContractRequest,
  TContractPositionView,
  TUpdateTpSlRequest,
} from "@northstar/shared/contracts/contracts";
import { MoneyDecimal } from "@northstar/shared/money";
import { contractPositionMachine } from "@northstar/shared/state-machines";
import { and, asc, eq, inArray } from "drizzle-orm";
import { assertCurrencyAmount } from "../currencies/index.ts";
import type { DbOrTx } from "../db/client.ts";
import { AppError } from "../errors.ts";
import type { OnceRecorder } from "../idempotency/index.ts";
import type { User } from "../identity/index.ts";
import { bookOf } from "../ledger/index.ts";
import { getPolicy } from "../policy/index.ts";
import { transition } from "../state/index.ts";
import { applyClose } from "./apply-close.ts";
import { type ContractPositionRow, contractPositions } from "./contracts.table.ts";
import { CONTRACT_CURRENCY, postCancel, postMarginChange } from "./money-moves.ts";
import { assertTpSl, type ContractDeps, freshTick } from "./open-position.ts";
import { positionTerms, toPositionView } from "./position-view.ts";
import { getContractProduct } from "./products.ts";

/** The user's own position, locked for the rest of the transaction; another user's id reaches nothing. */
async function lockOwn(tx: DbOrTx, user: User, id: number): Promise<ContractPositionRow> {
  const [row] = await tx
    .select()
    .from(contractPositions)
    .where(
      and(
        eq(contractPositions.id, id),
        eq(contractPositions.userId, user.id),
        eq(contractPositions.book, bookOf(user)),
      ),
    )
    .for("update");
  if (!row) {
    throw new AppError("CONTRACT_NOT_FOUND", {}, "id");
  }
  return row;
}

/**
 * Closes all of a holding position, or `lots` of it, at the latest recorded feed tick. The row is
 * locked first, so of two simultaneous closes the second finds fewer lots (or none) and a full
 * close happens once. A partial close must leave at least the minimum lots.
 */
export async function closeContractPosition(
  deps: ContractDeps,
  user: User,
  input: TCloseContractRequest,
  once?: OnceRecorder,
): Promise<TContractPositionView> {
  const now = deps.now?.() ?? new Date();
  return deps.db.transaction(async (tx) => {
    const row = await lockOwn(tx, user, input.id);
    if (row.status !== "holding") {
      throw new AppError("CONTRACT_NOT_HOLDING");
    }
    const product = await getContractProduct(tx, row.symbol, now);
    const tick = await freshTick(tx, product, now);
    const closeLots = input.lots ?? row.lots;
    const left = new MoneyDecimal(row.lots).minus(closeLots);
    if (
      !isLotMultiple(closeLots, product.lot_step) ||
      left.lt(0) ||
      (left.gt(0) && left.lt(product.min_lots))
    ) {
      throw new AppError(
        "CONTRACT_LOTS_INVALID",
        { step: product.lot_step, min: product.min_lots, max: new MoneyDecimal(row.lots).toFixed() },
        "lots",
      );
    }
    const view = await applyClose(tx, row, {
      closeLots: new MoneyDecimal(closeLots).toFixed(),
      price: tick.price,
      tickId: tick.id,
      reason: "user",
      by: "user",
      at: now,
    });
    await once?.record(tx, view);
    return view;
  });
}

/** One-click close of every holding position of the user (each at its market's latest tick); returns those closed. */
export async function closeAllContractPositions(
  deps: ContractDeps,
  user: User,
): Promise<TContractPositionView[]> {
  const rows = await deps.db
    .select({ id: contractPositions.id })
    .from(contractPositions)
    .where(
      and(
        eq(contractPositions.userId, user.id),
        eq(contractPositions.book, bookOf(user)),
        inArray(contractPositions.status, ["holding"]),
      ),
    )
    .orderBy(asc(contractPositions.id));
  const closed: TContractPositionView[] = [];
  for (const { id } of rows) {
    try {
      closed.push(await closeContractPosition(deps, user, { id }));
    } catch (error) {
      // A position closed meanwhile (TP, SL, liquidation) or a closed market is skipped, not an error.
      if (!(error instanceof AppError)) {
        throw error;
      }
    }
  }
  return closed;
}

/** Cancels a pending limit order: what it held returns to the available balance. */
export async function cancelContractOrder(
  deps: ContractDeps,
  user: User,
  id: number,
): Promise<TContractPositionView> {
  const now = deps.now?.() ?? new Date();
  return deps.db.transaction(async (tx) => {
    const row = await lockOwn(tx, user, id);
    if (row.status !== "pending") {
      throw new AppError("CONTRACT_NOT_HOLDING");
    }
    const set = { closedAt: now, closeReason: "cancelled", updatedAt: new Date() };
    const moved = await transition(tx, {
      machine: contractPositionMachine,
      table: contractPositions,
      id: row.id,
      from: "pending",
      to: "cancelled",
      by: "user",
      set,
    });
    if (!moved) {
      throw new AppError("CONTRACT_NOT_HOLDING");
    }
    await postCancel(tx, row, new MoneyDecimal(row.margin).plus(row.heldFee).toFixed());
    return toPositionView({ ...row, ...set, status: "cancelled" });
  });
}

/**
 * Adds margin (up to initial margin × (1 + policy `contracts.maxExtraMarginRatio`)) or takes some
 * back: only what was added beyond the initial margin, and never so much that the position would
 * be liquidated at the current price.
 */
export async function adjustContractMargin(
  deps: ContractDeps,
  user: User,
  input: TAdjustMarginRequest,
  once?: OnceRecorder,
): Promise<TContractPositionView> {
  const now = deps.now?.() ?? new Date();
  return deps.db.transaction(async (tx) => {
    const row = await lockOwn(tx, user, input.id);
    if (row.status !== "holding") {
      throw new AppError("CONTRACT_NOT_HOLDING");
    }
    const amount = new MoneyDecimal(input.amount);
    const decimals = await assertCurrencyAmount(tx, CONTRACT_CURRENCY, amount, "amount");
    const margin = new MoneyDecimal(row.margin);
    const add = input.direction === "add";
    if (add) {
      const ratio = await getPolicy(tx, "contracts.maxExtraMarginRatio");
      const ceiling = new MoneyDecimal(row.initialMargin).times(new MoneyDecimal(1).plus(ratio));
      const room = MoneyDecimal.max(ceiling.minus(margin), 0).toDecimalPlaces(
        decimals,
        MoneyDecimal.ROUND_DOWN,
      );
      if (amount.gt(room)) {
        throw new AppError("CONTRACT_EXTRA_MARGIN_LIMIT", { max: room.toFixed() }, "amount");
      }
    } else {
      const product = await getContractProduct(tx, row.symbol, now);
      const tick = await freshTick(tx, product, now);
      const room = MoneyDecimal.max(margin.minus(row.initialMargin), 0);
      const after = margin.minus(amount).toFixed();
      if (amount.gt(room) || isLiquidatable({ ...positionTerms(row), margin: after }, tick.price)) {
        throw new AppError("CONTRACT_MARGIN_BELOW_SAFE", { max: room.toFixed() }, "amount");
      }
    }
    const values = {
      margin: (add ? margin.plus(amount) : margin.minus(amount)).toFixed(),
      revision: row.revision + 1,
      updatedAt: new Date(),
    };
    await tx.update(contractPositions).set(values).where(eq(contractPositions.id, row.id));
    await postMarginChange(tx, row, String(values.revision), amount.toFixed(), add);
    const view = toPositionView({ ...row, ...values });
    await once?.record(tx, view);
    return view;
  });
}

/** Sets or clears the TP and SL of a holding position or pending order, checked against the current (or limit) price. */
export async function updateContractTpSl(
  deps: ContractDeps,
  user: User,
  input: TUpdateTpSlRequest,
): Promise<TContractPositionView> {
  const now = deps.now?.() ?? new Date();
  return deps.db.transaction(async (tx) => {
    const row = await lockOwn(tx, user, input.id);
    if (row.status !== "holding" && row.status !== "pending") {
      throw new AppError("CONTRACT_NOT_HOLDING");
    }
    const reference =
      row.status === "pending"
        ? (row.limitPrice as string)
        : (await freshTick(tx, await getContractProduct(tx, row.symbol, now), now)).price;
    assertTpSl(row.side, reference, input.take_profit, input.stop_loss);
    const values = {
      takeProfit: input.take_profit ?? null,
      stopLoss: input.stop_loss ?? null,
      revision: row.revision + 1,
      updatedAt: new Date(),
    };
    await tx.update(contractPositions).set(values).where(eq(contractPositions.id, row.id));
    return toPositionView({ ...row, ...values });
  });
}
