import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import type { OnceRecorder } from "../idempotency/index.ts";
import type { User } from "../identity/index.ts";
import { bookOf, postEntry } from "../ledger/index.ts";
import { type PriceProvider, valueInUsdt } from "../markets/index.ts";
import { getPolicy } from "../policy/index.ts";
import { conversionQuotes, walletTransfers } from "./funding.table.ts";
import { quoteConversion } from "./transfers.ts";

export interface ConversionDeps {
  db: Db;
  prices: PriceProvider;
  /** The time quotes are made and checked at; tests pass a clock they move. */
  now?: () => Date;
}

/**
 * A firm quote: the price of the moment, less the spread, and the exact amount the user will receive,
 * held for `funding.convert.quoteSeconds`. Confirming it (convertAtQuote) converts exactly these
 * amounts, whatever the price does meanwhile; the platform carries that risk for a few seconds.
 */
export async function createConversionQuote(
  deps: ConversionDeps,
  user: User,
  input: { from: string; to: string; amount: string },
) {
  const quote = await quoteConversion(deps.db, deps.prices, input);
  const now = deps.now?.() ?? new Date();
  const seconds = await getPolicy(deps.db, "funding.convert.quoteSeconds");
  const turnover =
    bookOf(user) === "real" ? ((await valueInUsdt(deps.prices, input.from, input.amount)) ?? "0") : "0";
  const [row] = await deps.db
    .insert(conversionQuotes)
    .values({
      id: randomUUID(),
      userId: user.id,
      book: bookOf(user),
      fromCurrency: quote.from,
      toCurrency: quote.to,
      amount: quote.amount,
      price: quote.price,
      received: quote.received,
      spread: quote.spread,
      turnoverUsdt: turnover,
      expiresAt: new Date(now.getTime() + seconds * 1000),
    })
    .returning();
  if (!row) {
    throw new AppError("REQUEST_ERROR");
  }
  return { ...quote, id: row.id, expires_at: row.expiresAt.toISOString(), seconds };
}

/**
 * Converts exactly what a firm quote said, or nothing: a quote that is not the user's, already used
 * or expired is refused. The quote is locked and marked used in the transaction that moves the money,
 * so two confirmations of one quote convert once.
 */
export async function convertAtQuote(
  deps: ConversionDeps,
  user: User,
  input: { quote_id: string },
  once?: OnceRecorder,
) {
  const now = deps.now?.() ?? new Date();
  return deps.db.transaction(async (tx) => {
    const [quote] = await tx
      .select()
      .from(conversionQuotes)
      .where(and(eq(conversionQuotes.id, input.quote_id), eq(conversionQuotes.userId, user.id)))
      .for("update");
    if (!quote || quote.book !== bookOf(user)) {
      throw new AppError("QUOTE_NOT_FOUND", {}, "quote_id");
    }
    if (quote.transferId !== null) {
      throw new AppError("QUOTE_USED", {}, "quote_id");
    }
    if (quote.expiresAt.getTime() <= now.getTime()) {
      throw new AppError("QUOTE_EXPIRED", {}, "quote_id");
    }
    const [row] = await tx
      .insert(walletTransfers)
      .values({
        userId: user.id,
        book: quote.book,
        kind: "convert",
        fromWallet: "exchange",
        toWallet: "exchange",
        fromCurrency: quote.fromCurrency,
        toCurrency: quote.toCurrency,
        amount: quote.amount,
        received: quote.received,
        price: quote.price,
        turnoverUsdt: quote.turnoverUsdt,
      })
      .returning();
    if (!row) {
      throw new AppError("REQUEST_ERROR");
    }
    await tx.update(conversionQuotes).set({ transferId: row.id }).where(eq(conversionQuotes.id, quote.id));
    const book = quote.book;
    await postEntry(tx, {
      idempotencyKey: `convert:${row.id}`,
      kind: "wallet.convert",
      reference: { type: "convert", id: row.id },
      postings: [
        {
          account: { userId: user.id, book, wallet: "exchange", currency: quote.fromCurrency },
          amount: `-${quote.amount}`,
        },
        { account: { system: "house", book, currency: quote.fromCurrency }, amount: quote.amount },
        { account: { system: "house", book, currency: quote.toCurrency }, amount: `-${quote.received}` },
        {
          account: { userId: user.id, book, wallet: "exchange", currency: quote.toCurrency },
          amount: quote.received,
        },
      ],
    });
    const answer = { ...row, price: quote.price, quote_id: quote.id };
    await once?.record(tx, answer);
    return answer;
  });
}
