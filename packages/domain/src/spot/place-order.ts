import type { TPlaceOrderRequest, TSpotOrderView } from "@northstar/shared/contracts/spot";
import { fitsNumeric, MoneyDecimal } from "@northstar/shared/money";
import type { Redis } from "ioredis";
import { assertAmountDecimals } from "../currencies/index.ts";
import type { Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import type { User } from "../identity/index.ts";
import { verifyTradePassword } from "../identity/index.ts";
import type { Book } from "../ledger/index.ts";
import { bookOf } from "../ledger/index.ts";
import { assertMarketTakesOrders, readTickers } from "../markets/index.ts";
import { getPolicy } from "../policy/index.ts";
import { bestAskKey } from "./commands.ts";
import { toLots, toQuoteUnits, toTicks } from "./engine/units.ts";
import { orderIntake } from "./order-intake.ts";
import { answerFor, recordedByKey } from "./order-keys.ts";
import { toOrderView } from "./order-view.ts";
import { getSpotTerms } from "./terms.ts";

export interface SpotDeps {
  db: Db;
  redis: Redis;
  prefix: string;
  /** The clock that judges the feed's freshness; tests move it. */
  now?: () => Date;
}

/** The best ask the matcher last committed in `book`, or null when its ask side is empty. */
async function bestAsk(deps: SpotDeps, book: Book, symbol: string): Promise<string | null> {
  return (await deps.redis.get(bestAskKey(deps.prefix, book, symbol))) || null;
}

/**
 * A market order takes the book's prices, which the market maker quotes around the feed's: while the
 * feed's latest price of the market is older than `spot.maxTickAgeMs`, the market takes none.
 */
async function assertFreshFeed(deps: SpotDeps, symbol: string): Promise<void> {
  const maxAge = await getPolicy(deps.db, "spot.maxTickAgeMs");
  const ticker = (await readTickers(deps.redis, deps.prefix)).get(symbol);
  const now = deps.now?.() ?? new Date();
  if (ticker && now.getTime() - ticker.t > maxAge) {
    throw new AppError("MARKET_PRICE_STALE", { seconds: maxAge / 1000 });
  }
}

/**
 * Places a spot order: checks it against the market's grid and the policy, holds what it can spend
 * and records it `pending` in one transaction (shared with the orders arriving at the same moment,
 * see OrderIntake), then hands it to the matcher. What it holds: a limit
 * buy price × quantity of the quote currency, a sell its quantity of the base currency, a market buy
 * its quote amount, or — by quantity — quantity × the protection price (best ask raised by
 * `spot.marketProtection`), which is also the limit it may not pass. Whatever is not spent returns
 * when the order finishes.
 */
export async function placeOrder(
  deps: SpotDeps,
  user: User,
  input: TPlaceOrderRequest,
  key?: { clientKey: string; requestHash: string },
  /** `api_key`: signed with an API key, which is the factor: no trade password is asked. */
  factor: "session" | "api_key" = "session",
): Promise<TSpotOrderView> {
  try {
    return await placeChecked(deps, user, input, key, factor);
  } catch (error) {
    // A resend answers its first order even when the market has since closed or moved. An order that
    // passes its checks meets its first in the intake (which answers it); only a refusal asks here,
    // so the order path reads nothing more for it.
    if (key && error instanceof AppError) {
      const first = (await recordedByKey(deps.db, [{ userId: user.id, ...key }])).get(
        `${user.id}:${key.clientKey}`,
      );
      if (first) {
        const answer = answerFor(key, first);
        if (answer instanceof AppError) {
          throw answer;
        }
        return toOrderView(answer);
      }
    }
    throw error;
  }
}

async function placeChecked(
  deps: SpotDeps,
  user: User,
  input: TPlaceOrderRequest,
  key: { clientKey: string; requestHash: string } | undefined,
  factor: "session" | "api_key",
): Promise<TSpotOrderView> {
  const { db } = deps;
  const terms = await getSpotTerms(db, input.symbol);
  if (!terms.open) {
    throw new AppError("MARKET_CLOSED");
  }
  await assertMarketTakesOrders(db, terms.symbol, user);
  if (input.type === "market") {
    await assertFreshFeed(deps, terms.symbol);
  }
  if (terms.tradePasswordRequired && factor === "session") {
    if (!input.trade_password) {
      throw new AppError("FIELD_REQUIRED", {}, "trade_password");
    }
    await verifyTradePassword(db, user.id, input.trade_password);
  }
  const { tickSize, lotSize } = terms;
  const quantity = input.quantity;
  // Amounts finer than their currency is held to could not be settled as given.
  if (quantity !== undefined) {
    assertAmountDecimals(quantity, terms.baseDecimals, "quantity");
  }
  if (input.quote_amount !== undefined) {
    assertAmountDecimals(input.quote_amount, terms.quoteDecimals, "quote_amount");
  }
  if (quantity !== undefined) {
    const lots = toLots(quantity, lotSize);
    if (lots === null) {
      throw new AppError("QUANTITY_OFF_LOT", { lot: new MoneyDecimal(lotSize).toFixed() }, "quantity");
    }
    if (new MoneyDecimal(quantity).lt(terms.minQty)) {
      throw new AppError("QUANTITY_BELOW_MINIMUM", {}, "quantity");
    }
  }
  let price: string | null = null;
  if (input.type === "limit") {
    price = input.price ?? "";
    if (toTicks(price, tickSize) === null) {
      throw new AppError("PRICE_OFF_TICK", { tick: new MoneyDecimal(tickSize).toFixed() }, "price");
    }
  }

  const book = bookOf(user);
  const holdCurrency = input.side === "buy" ? terms.quote : terms.base;
  let hold: MoneyDecimal;
  let timeInForce = input.time_in_force;
  if (input.side === "sell") {
    hold = new MoneyDecimal(quantity ?? "0");
  } else if (input.type === "limit") {
    hold = new MoneyDecimal(price ?? "0").times(quantity ?? "0");
  } else if (input.quote_amount !== undefined) {
    if ((toQuoteUnits(input.quote_amount, tickSize, lotSize) ?? 0) < 1) {
      throw new AppError("QUANTITY_BELOW_MINIMUM", {}, "quote_amount");
    }
    hold = new MoneyDecimal(input.quote_amount);
  } else {
    const ask = await bestAsk(deps, book, terms.symbol);
    if (ask === null) {
      throw new AppError("NO_LIQUIDITY");
    }
    const protection = new MoneyDecimal(terms.marketProtection).plus(1);
    price = new MoneyDecimal(ask)
      .times(protection)
      .div(tickSize)
      .toDecimalPlaces(0, MoneyDecimal.ROUND_UP)
      .times(tickSize)
      .toFixed();
    hold = new MoneyDecimal(price).times(quantity ?? "0");
    // A protected market buy is an immediate-or-cancel limit at the protection price.
    timeInForce = "ioc";
  }
  if (input.type === "market" && input.side === "sell") {
    timeInForce = "ioc";
  }
  if (input.side === "buy") {
    // price × quantity can be finer than the quote currency is held to: round up, so the hold always
    // covers what the order may spend (the unspent rest returns when the order ends).
    hold = hold.toDecimalPlaces(terms.quoteDecimals, MoneyDecimal.ROUND_UP);
  }
  if (!fitsNumeric(hold)) {
    throw new AppError(
      "AMOUNT_TOO_LARGE",
      {},
      input.quote_amount !== undefined ? "quote_amount" : "quantity",
    );
  }

  // The open-order limit is checked by the intake, in the transaction that records the order.
  const row = await orderIntake(db, deps.redis, deps.prefix).submit(
    {
      userId: user.id,
      book,
      symbol: terms.symbol,
      base: terms.base,
      quote: terms.quote,
      side: input.side,
      type: input.type,
      timeInForce,
      price,
      quantity: quantity ?? null,
      quoteAmount: input.type === "market" && input.side === "buy" ? (input.quote_amount ?? null) : null,
      feeCurrency: input.side === "buy" ? terms.base : terms.quote,
      holdCurrency,
      held: hold.toFixed(),
      clientKey: key?.clientKey ?? null,
      requestHash: key?.requestHash ?? null,
    },
    terms.maxOpenOrders,
  );
  return toOrderView(row);
}
