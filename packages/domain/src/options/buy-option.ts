import type { TBuyOptionRequest, TOptionOrderView } from "@northstar/shared/contracts/options";
import { MoneyDecimal } from "@northstar/shared/money";
import { optionFee } from "@northstar/shared/options";
import { assertCurrencyAmount } from "../currencies/index.ts";
import type { Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import type { OnceRecorder } from "../idempotency/index.ts";
import type { User } from "../identity/index.ts";
import { assertWithinRiskLimit } from "../kyc/index.ts";
import { bookOf, postEntry } from "../ledger/index.ts";
import { assertMarketTakesOrders } from "../markets/index.ts";
import { getPolicy } from "../policy/index.ts";
import { optionOrders } from "./options.table.ts";
import { toOptionView } from "./order-view.ts";
import { findOptionProduct } from "./products.ts";
import type { SettlementScheduler } from "./settlement-queue.ts";
import { currentTick } from "./ticks.ts";

/** Options are bought and paid out in USDT, to the decimals the currencies table holds it to. */
export const OPTION_CURRENCY = "USDT";

export interface BuyOptionDeps {
  db: Db;
  /** Enqueues the settlement job after the purchase commits; the worker's sweeper covers a miss. */
  scheduler?: SettlementScheduler;
  now?: () => Date;
}

/**
 * Buys an up/down option. The purchase price is the latest recorded feed tick at acceptance (its id
 * and time are kept); the amount plus the fee moves from the user's option wallet to the options
 * house account through the ledger in the transaction that records the order. Demo accounts trade in
 * the demo book. The settlement job is scheduled for the expiry instant.
 */
export async function buyOption(
  deps: BuyOptionDeps,
  user: User,
  input: TBuyOptionRequest,
  once?: OnceRecorder,
): Promise<TOptionOrderView> {
  const { db } = deps;
  const now = deps.now?.() ?? new Date();
  const { product, period } = await findOptionProduct(db, input.symbol, input.period_seconds, now);
  if (!product.open) {
    throw new AppError("MARKET_CLOSED");
  }
  await assertMarketTakesOrders(db, product.symbol, user);
  // An expiry while the market is closed has no feed price to settle on: not sold.
  if (!period.expiry_open) {
    throw new AppError("OPTION_EXPIRY_MARKET_CLOSED", {}, "period_seconds");
  }
  const amount = new MoneyDecimal(input.amount);
  if (amount.lte(0)) {
    throw new AppError("INVESTMENT_NOT_POSITIVE", {}, "amount");
  }
  const decimals = await assertCurrencyAmount(db, OPTION_CURRENCY, amount, "amount");
  if (amount.lt(period.min)) {
    throw new AppError("OPTION_AMOUNT_BELOW_MINIMUM", { min: period.min }, "amount");
  }
  if (amount.gt(period.max)) {
    throw new AppError("OPTION_AMOUNT_ABOVE_MAXIMUM", { max: period.max }, "amount");
  }
  const maxAge = await getPolicy(db, "options.maxTickAgeMs");
  const tick = await currentTick(db, product.symbol, now);
  if (!tick) {
    throw new AppError("PRICE_UNAVAILABLE");
  }
  if (now.getTime() - tick.time.getTime() > maxAge) {
    // The feed has gone quiet: no new option on a price that may no longer be the market's.
    throw new AppError("MARKET_PRICE_STALE", { seconds: maxAge / 1000 });
  }
  const fee = optionFee(amount.toFixed(), period.fee_rate, decimals);
  const cost = amount.plus(fee).toFixed();
  const book = bookOf(user);
  const view = await db.transaction(async (tx) => {
    await assertWithinRiskLimit(tx, String(user.id), amount.toFixed());
    const [row] = await tx
      .insert(optionOrders)
      .values({
        userId: user.id,
        book,
        symbol: product.symbol,
        direction: input.direction,
        periodSeconds: period.seconds,
        amount: amount.toFixed(),
        fee,
        feeRate: period.fee_rate,
        payoutRate: period.payout_rate,
        tieRule: product.tie,
        purchaseTickId: tick.id,
        purchasePrice: tick.price,
        purchaseTickTime: tick.time,
        purchasedAt: now,
        expiresAt: new Date(now.getTime() + period.seconds * 1000),
      })
      .returning();
    if (!row) {
      throw new AppError("REQUEST_ERROR");
    }
    await postEntry(tx, {
      idempotencyKey: `option.buy:${row.id}`,
      kind: "option.buy",
      reference: { type: "option_order", id: row.id },
      postings: [
        {
          account: { userId: user.id, book, wallet: "option", currency: OPTION_CURRENCY },
          amount: `-${cost}`,
        },
        { account: { system: "options_house", book, currency: OPTION_CURRENCY }, amount: cost },
      ],
    });
    const result = toOptionView(row);
    await once?.record(tx, result);
    return result;
  });
  await deps.scheduler?.schedule(new Date(view.expires_at), now);
  return view;
}
