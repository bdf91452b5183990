import type { TWalletType } from "@northstar/shared/contracts/funding";
import { fitsNumeric, MoneyDecimal } from "@northstar/shared/money";
import { assertAmountDecimals, assertCurrencyAmount, currencyDecimals } from "../currencies/index.ts";
import type { Db, DbOrTx } from "../db/client.ts";
import { AppError } from "../errors.ts";
import type { OnceRecorder } from "../idempotency/index.ts";
import type { User } from "../identity/index.ts";
import { bookOf, postEntry } from "../ledger/index.ts";
import { type PriceProvider, valueInUsdt } from "../markets/index.ts";
import { getPolicy } from "../policy/index.ts";
import { walletTransfers } from "./funding.table.ts";

/** The API reads a currency's decimals (the withdrawal fee preview) through funding. */
export { currencyDecimals };

/** Moves funds between the user's own wallets (exchange, contract, option, futures). */
export async function transferBetweenWallets(
  db: Db,
  user: User,
  input: { from: TWalletType; to: TWalletType; currency: string; amount: string },
  once?: OnceRecorder,
) {
  if (input.from === input.to) {
    throw new AppError("SAME_WALLET", {}, "to");
  }
  await assertCurrencyAmount(db, input.currency, input.amount, "amount");
  const book = bookOf(user);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(walletTransfers)
      .values({
        userId: user.id,
        book,
        kind: "transfer",
        fromWallet: input.from,
        toWallet: input.to,
        fromCurrency: input.currency,
        toCurrency: input.currency,
        amount: input.amount,
        received: input.amount,
      })
      .returning();
    if (!row) {
      throw new AppError("REQUEST_ERROR");
    }
    await postEntry(tx, {
      idempotencyKey: `transfer:${row.id}`,
      kind: "wallet.transfer",
      reference: { type: "transfer", id: row.id },
      postings: [
        {
          account: { userId: user.id, book, wallet: input.from, currency: input.currency },
          amount: `-${input.amount}`,
        },
        {
          account: { userId: user.id, book, wallet: input.to, currency: input.currency },
          amount: input.amount,
        },
      ],
    });
    await once?.record(tx, row);
    return row;
  });
}

/**
 * The price for converting `from` into `to`: units of `to` per unit of `from`, from the price
 * provider, less the policy spread. Shown to the user before confirming, spread included.
 */
export async function quoteConversion(
  db: DbOrTx,
  prices: PriceProvider,
  input: { from: string; to: string; amount: string },
) {
  if (input.from === input.to) {
    throw new AppError("SAME_WALLET", {}, "to");
  }
  const [fromDecimals, toDecimals] = [
    await currencyDecimals(db, input.from),
    await currencyDecimals(db, input.to),
  ];
  assertAmountDecimals(input.amount, fromDecimals, "amount");
  const [fromPrice, toPrice, spread] = await Promise.all([
    prices.priceInUsdt(input.from),
    prices.priceInUsdt(input.to),
    getPolicy(db, "funding.convert.spread"),
  ]);
  if (!fromPrice || !toPrice) {
    throw new AppError("PRICE_UNAVAILABLE");
  }
  const mid = new MoneyDecimal(fromPrice).div(toPrice);
  const price = mid.times(new MoneyDecimal(1).minus(spread)).toDecimalPlaces(18, MoneyDecimal.ROUND_DOWN);
  const received = new MoneyDecimal(input.amount)
    .times(price)
    .toDecimalPlaces(toDecimals, MoneyDecimal.ROUND_DOWN);
  // What is received, and the amount's USDT worth counted as turnover, are stored too.
  if (!fitsNumeric(received) || !fitsNumeric(new MoneyDecimal(input.amount).times(fromPrice))) {
    throw new AppError("AMOUNT_TOO_LARGE", {}, "amount");
  }
  if (received.isZero()) {
    throw new AppError("AMOUNT_INVALID", {}, "amount");
  }
  return {
    from: input.from,
    to: input.to,
    amount: input.amount,
    price: price.toFixed(),
    received: received.toFixed(),
    spread,
  };
}

/**
 * Converts in the exchange wallet at the price of the moment. The user confirmed a quoted price; if
 * the price has since moved against them by more than `funding.convert.priceTolerance`, the
 * conversion is refused with PRICE_CHANGED and re-quoted; a move in their favour is theirs.
 */
export async function convertCurrency(
  db: Db,
  prices: PriceProvider,
  user: User,
  input: { from: string; to: string; amount: string; price: string },
  once?: OnceRecorder,
) {
  const quote = await quoteConversion(db, prices, input);
  const tolerance = await getPolicy(db, "funding.convert.priceTolerance");
  const worst = new MoneyDecimal(input.price).times(new MoneyDecimal(1).minus(tolerance));
  if (new MoneyDecimal(quote.price).lt(worst)) {
    throw new AppError("PRICE_CHANGED");
  }
  const book = bookOf(user);
  const turnover = book === "real" ? ((await valueInUsdt(prices, input.from, input.amount)) ?? "0") : "0";
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(walletTransfers)
      .values({
        userId: user.id,
        book,
        kind: "convert",
        fromWallet: "exchange",
        toWallet: "exchange",
        fromCurrency: input.from,
        toCurrency: input.to,
        amount: input.amount,
        received: quote.received,
        price: quote.price,
        turnoverUsdt: turnover,
      })
      .returning();
    if (!row) {
      throw new AppError("REQUEST_ERROR");
    }
    await postEntry(tx, {
      idempotencyKey: `convert:${row.id}`,
      kind: "wallet.convert",
      reference: { type: "convert", id: row.id },
      postings: [
        {
          account: { userId: user.id, book, wallet: "exchange", currency: input.from },
          amount: `-${input.amount}`,
        },
        { account: { system: "house", book, currency: input.from }, amount: input.amount },
        { account: { system: "house", book, currency: input.to }, amount: `-${quote.received}` },
        {
          account: { userId: user.id, book, wallet: "exchange", currency: input.to },
          amount: quote.received,
        },
      ],
    });
    const answer = { ...row, price: quote.price };
    await once?.record(tx, answer);
    return answer;
  });
}
