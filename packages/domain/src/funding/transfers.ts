import type { TWalletType } from "@northstar/shared/contracts/funding";
import { fitsNumeric, MoneyDecimal } from "@northstar/shared/money";
import { assertAmountDecimals, assertCurrencyAmount, currencyDecimals } from "../currencies/index.ts";
import type { Db, DbOrTx } from "../db/client.ts";
import { AppError } from "../errors.ts";
import type { OnceRecorder } from "../idempotency/index.ts";
import type { User } from "../identity/index.ts";
import { bookOf, postEntry } from "../ledger/index.ts";
import type { PriceProvider } from "../markets/index.ts";
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
