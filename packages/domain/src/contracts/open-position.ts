import { initialMargin, isLotMultiple, tpSlProblem, tradeFee } from "@northstar/shared/contract-math";
import type { TContractPositionView, TOpenContractRequest } from "@northstar/shared/contracts/contracts";
import { MoneyDecimal } from "@northstar/shared/money";
import type { Db, DbOrTx } from "../db/client.ts";
import { AppError } from "../errors.ts";
import type { OnceRecorder } from "../idempotency/index.ts";
import type { User } from "../identity/index.ts";
import { assertWithinRiskLimit } from "../kyc/index.ts";
import { bookOf } from "../ledger/index.ts";
import { assertMarketTakesOrders } from "../markets/index.ts";
import { getPolicy } from "../policy/index.ts";
import { contractPositions } from "./contracts.table.ts";
import { postOpen } from "./money-moves.ts";
import { toPositionView } from "./position-view.ts";
import { type ContractProduct, getContractProduct } from "./products.ts";
import { type ContractTick, latestContractTick } from "./ticks.ts";

export interface ContractDeps {
  db: Db;
  now?: () => Date;
}

/**
 * The latest recorded tick of an open market, or MARKET_CLOSED, PRICE_UNAVAILABLE (none recorded) or
 * MARKET_PRICE_STALE (the feed's latest is older than `contracts.maxTickAgeMs`: no new position).
 */
export async function freshTick(db: DbOrTx, product: ContractProduct, now: Date): Promise<ContractTick> {
  if (!product.open) {
    throw new AppError("MARKET_CLOSED");
  }
  const maxAge = await getPolicy(db, "contracts.maxTickAgeMs");
  const tick = await latestContractTick(db, product.symbol, now);
  if (!tick) {
    throw new AppError("PRICE_UNAVAILABLE");
  }
  if (now.getTime() - tick.time.getTime() > maxAge) {
    throw new AppError("MARKET_PRICE_STALE", { seconds: maxAge / 1000 });
  }
  return tick;
}

/** Lots must be a multiple of the product's step within its minimum and maximum. */
export function assertLots(product: ContractProduct, lots: string): void {
  const l = new MoneyDecimal(lots);
  if (!isLotMultiple(lots, product.lot_step) || l.lt(product.min_lots) || l.gt(product.max_lots)) {
    throw new AppError(
      "CONTRACT_LOTS_INVALID",
      { step: product.lot_step, min: product.min_lots, max: product.max_lots },
      "lots",
    );
  }
}

/** TP above and SL below the reference price for a long; the other way round for a short. */
export function assertTpSl(
  side: "long" | "short",
  price: string,
  takeProfit: string | null | undefined,
  stopLoss: string | null | undefined,
): void {
  const problem = tpSlProblem(side, price, takeProfit, stopLoss);
  if (problem === "take_profit") {
    throw new AppError("CONTRACT_TAKE_PROFIT_INVALID", {}, "take_profit");
  }
  if (problem === "stop_loss") {
    throw new AppError("CONTRACT_STOP_LOSS_INVALID", {}, "stop_loss");
  }
}

/** What opening would cost and risk, computed as the server will: shown to the user before confirming. */
export function quoteOpening(product: ContractProduct, price: string, lots: string, leverage: number) {
  return {
    margin: initialMargin(price, lots, product.contract_size, leverage),
    fee: tradeFee(price, lots, product.contract_size, product.fee_rate),
  };
}

/**
 * Opens a long or short. A market order opens at the latest recorded feed tick (its id is kept); a
 * limit order waits `pending` until the risk engine sees the feed cross its price and fills it at
 * that price. Margin (price × lots × size ÷ leverage) and the fee leave the user's contract wallet
 * through the ledger in the transaction that records the position. Demo users trade the demo book.
 */
export async function openContractPosition(
  deps: ContractDeps,
  user: User,
  input: TOpenContractRequest,
  once?: OnceRecorder,
): Promise<TContractPositionView> {
  const { db } = deps;
  const now = deps.now?.() ?? new Date();
  const product = await getContractProduct(db, input.symbol, now);
  if (!product.leverage.includes(input.leverage)) {
    throw new AppError("CONTRACT_LEVERAGE_INVALID", {}, "leverage");
  }
  assertLots(product, input.lots);
  const limit = input.order_type === "limit";
  if (limit && !input.price) {
    throw new AppError("CONTRACT_LIMIT_PRICE_REQUIRED", {}, "price");
  }
  if (product.open) {
    await assertMarketTakesOrders(db, product.symbol, user);
  }
  const tick = await freshTick(db, product, now);
  const price = limit
    ? new MoneyDecimal(input.price as string).toFixed()
    : new MoneyDecimal(tick.price).toFixed();
  assertTpSl(input.side, price, input.take_profit, input.stop_loss);
  const { margin, fee } = quoteOpening(product, price, input.lots, input.leverage);
  const book = bookOf(user);
  return db.transaction(async (tx) => {
    await assertWithinRiskLimit(tx, user.id, margin);
    const [row] = await tx
      .insert(contractPositions)
      .values({
        userId: user.id,
        book,
        symbol: product.symbol,
        productType: product.type,
        side: input.side,
        orderType: input.order_type,
        status: limit ? "pending" : "holding",
        lots: input.lots,
        originalLots: input.lots,
        contractSize: product.contract_size,
        leverage: input.leverage,
        limitPrice: limit ? price : null,
        entryPrice: limit ? null : price,
        margin,
        initialMargin: margin,
        heldFee: limit ? fee : "0",
        openFee: limit ? "0" : fee,
        takeProfit: input.take_profit ?? null,
        stopLoss: input.stop_loss ?? null,
        maintenanceRate: product.maintenance_rate,
        feeRate: product.fee_rate,
        overnightRate: product.overnight_rate,
        // A limit order keeps the tick current when it was placed: only later ticks may fill it.
        openTickId: tick.id,
        expiresAt: product.expires_at ? new Date(product.expires_at) : null,
        createdAt: now,
        openedAt: limit ? null : now,
      })
      .returning();
    if (!row) {
      throw new AppError("REQUEST_ERROR");
    }
    await postOpen(tx, row, margin, fee, limit);
    const view = toPositionView(row);
    await once?.record(tx, view);
    return view;
  });
}
