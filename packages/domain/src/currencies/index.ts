import { MoneyDecimal } from "@northstar/shared/money";
import { asc, eq, inArray } from "drizzle-orm";
import type { DbOrTx } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { currencies } from "./currencies.table.ts";

export type CurrencyRow = typeof currencies.$inferSelect;

/** The enabled currencies, in their display order. */
export function listCurrencies(db: DbOrTx): Promise<CurrencyRow[]> {
  return db
    .select()
    .from(currencies)
    .where(eq(currencies.enabled, true))
    .orderBy(asc(currencies.sort), asc(currencies.code));
}

/** One currency's precision and whether it is enabled; undefined when the platform does not hold it. */
export async function findCurrency(
  db: DbOrTx,
  code: string,
): Promise<{ decimals: number; enabled: boolean } | undefined> {
  const [row] = await db
    .select({ decimals: currencies.decimals, enabled: currencies.enabled })
    .from(currencies)
    .where(eq(currencies.code, code));
  return row;
}

/** An enabled currency's stored decimals; CURRENCY_UNSUPPORTED (naming `field`) when the platform does not hold it. */
export async function currencyDecimals(db: DbOrTx, code: string, field = "currency"): Promise<number> {
  const row = await findCurrency(db, code);
  if (!row?.enabled) {
    throw new AppError("CURRENCY_UNSUPPORTED", {}, field);
  }
  return row.decimals;
}

/**
 * The one check of a typed amount's precision: more decimals than `decimals` is refused with
 * AMOUNT_TOO_PRECISE naming the field and the decimals allowed. Trailing zeros do not count
 * ("1.500" has one decimal), so a value the currency can hold is never refused for its spelling.
 */
export function assertAmountDecimals(amount: string | MoneyDecimal, decimals: number, field: string): void {
  if (new MoneyDecimal(amount).decimalPlaces() > decimals) {
    throw new AppError("AMOUNT_TOO_PRECISE", { decimals }, field);
  }
}

/**
 * A typed amount of a currency: refused when the currency is not held (CURRENCY_UNSUPPORTED) or the
 * amount is finer than the currency's decimals (AMOUNT_TOO_PRECISE). Returns the decimals.
 */
export async function assertCurrencyAmount(
  db: DbOrTx,
  currency: string,
  amount: string | MoneyDecimal,
  field: string,
): Promise<number> {
  const decimals = await currencyDecimals(db, currency);
  assertAmountDecimals(amount, decimals, field);
  return decimals;
}

/** Every currency's decimals, enabled or not, by code. */
export function listCurrencyDecimals(db: DbOrTx): Promise<{ code: string; decimals: number }[]> {
  return db
    .select({ code: currencies.code, decimals: currencies.decimals })
    .from(currencies)
    .orderBy(asc(currencies.code));
}

/** Whether every code names a currency the platform holds. */
export async function allCurrenciesKnown(db: DbOrTx, codes: string[]): Promise<boolean> {
  if (codes.length === 0) {
    return true;
  }
  const rows = await db
    .select({ code: currencies.code })
    .from(currencies)
    .where(inArray(currencies.code, codes))
    .orderBy(asc(currencies.code));
  return rows.length === new Set(codes).size;
}

/** Adds currencies that are not there yet; existing rows stay as operators edited them. */
export async function addCurrencies(db: DbOrTx, rows: (typeof currencies.$inferInsert)[]): Promise<void> {
  await db.insert(currencies).values(rows).onConflictDoNothing();
}
