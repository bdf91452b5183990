import { LANGUAGES } from "@northstar/shared/languages";
import { count, eq, sql } from "drizzle-orm";
import { operators } from "../admin/admin.table.ts";
import { generateOperatorPassword, upsertOperator } from "../admin/manage-operators.ts";
import { contentTexts, type LocalizedText } from "../content/content.table.ts";
import { getSiteSettings, saveContentText, saveSiteSettings } from "../content/content-texts.ts";
import { SEED_CONTENT } from "../content/seed/index.ts";
import { currencies } from "../currencies/currencies.table.ts";
import { seedCatalogue } from "../markets/catalogue.ts";
import type { Db } from "./client.ts";

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
  await db
    .insert(currencies)
    .values(
      CURRENCIES.map(([code, name, decimals, displayDecimals], i) => ({
        code,
        name,
        decimals,
        displayDecimals,
        sort: i,
      })),
    )
    .onConflictDoNothing();

  await seedCatalogue(db);

  const [existingSite] = await db
    .execute<{ n: number }>(sql`select count(*)::int as n from site_config where key = 'site'`)
    .then((r) => r.rows);
  if (!existingSite?.n) {
    await saveSiteSettings(db, { ...(await getSiteSettings(db)), supportEmail: "support@northstar.local" });
  }

  const [texts] = await db.select({ n: count() }).from(contentTexts);
  if (!texts?.n) {
    for (const item of SEED_CONTENT) {
      const localized: LocalizedText = {};
      for (const lang of LANGUAGES) {
        const t = item.texts[lang];
        if (t) {
          localized[lang] = t;
        }
      }
      await saveContentText(db, {
        id: item.id,
        kind: item.kind,
        texts: localized,
        sort: item.sort ?? 0,
        publishedAt: item.publishedAt,
      });
      if (item.id !== undefined) {
        // Fixed ids are inserted explicitly; keep the sequence past them.
        await db.execute(
          sql`select setval(pg_get_serial_sequence('content_texts', 'id'), (select max(id) from content_texts))`,
        );
      }
    }
  }

  const [admin] = await db
    .select({ id: operators.id })
    .from(operators)
    .where(eq(operators.username, "admin"));
  if (!admin) {
    const password = generateOperatorPassword();
    await upsertOperator(db, { username: "admin", password, role: "admin", actor: "seed" });
    return { operatorPassword: password };
  }
  return {};
}
