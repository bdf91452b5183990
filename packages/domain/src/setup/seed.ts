import { seedAdminOperator } from "../admin/index.ts";
import { seedContent } from "../content/index.ts";
import { addCurrencies } from "../currencies/index.ts";
import type { Db } from "../db/client.ts";
import { seedCatalogue } from "../markets/index.ts";

/** Currencies held on the platform: code, name, stored decimals, display decimals. */
const CURRENCIES: [string, string, number, number][] = [
  ["USDT", "Tether", 6, 2],
  ["USDC", "USD Coin", 6, 2],
  ["BTC", "Bitcoin", 8, 6],
  ["ETH", "Ethereum", 8, 6],
  ["TRX", "TRON", 6, 4],
  ["BNB", "BNB", 8, 4],
  ["SOL", "Solana", 8, 4],
  ["XRP", "XRP", 6, 4],
  ["DOGE", "Dogecoin", 8, 4],
  ["ADA", "Cardano", 6, 4],
  ["LTC", "Litecoin", 8, 4],
  ["USD", "US Dollar", 2, 2],
];

/**
 * Makes a fresh database a usable site: currencies, the instrument catalogue, site settings, content pages, and one operator.
 * Idempotent: running it again changes nothing that exists. Returns the operator password when it
 * created the operator, so the caller can print it once; it is stored only as a hash.
 */
export async function seedDatabase(db: Db): Promise<{ operatorPassword?: string }> {
  await addCurrencies(
    db,
    CURRENCIES.map(([code, name, decimals, displayDecimals], i) => ({
      code,
      name,
      decimals,
      displayDecimals,
      sort: i,
    })),
  );

  await seedCatalogue(db);

  await seedContent(db);
  return seedAdminOperator(db);
}
