import { asc, eq, inArray } from "drizzle-orm";
import type { DbOrTx } from "../db/client.ts";
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
