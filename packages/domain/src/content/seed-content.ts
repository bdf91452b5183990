import { LANGUAGES } from "@northstar/shared/languages";
import { count, sql } from "drizzle-orm";
import type { DbOrTx } from "../db/client.ts";
import { contentTexts, helpCategories, type LocalizedText } from "./content.table.ts";
import { getSiteSettings, saveContentText, saveSiteSettings } from "./content-texts.ts";
import { SEED_HELP } from "./seed/help.ts";
import { SEED_CONTENT } from "./seed/index.ts";

/** Site settings and the first pages, news, announcements and help of a fresh site. Leaves existing ones as they are. */
export async function seedContent(db: DbOrTx): Promise<void> {
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
  await seedHelpCentre(db);
}

/** The help centre's first categories and articles, when it has none. */
export async function seedHelpCentre(db: DbOrTx): Promise<void> {
  const [existing] = await db.select({ n: count() }).from(helpCategories);
  if (existing?.n) {
    return;
  }
  for (const [i, category] of SEED_HELP.entries()) {
    const [row] = await db
      .insert(helpCategories)
      .values({ names: category.names, sort: (i + 1) * 10 })
      .returning({ id: helpCategories.id });
    for (const [j, texts] of category.articles.entries()) {
      await saveContentText(db, { kind: "help", categoryId: row?.id, texts, sort: j });
    }
  }
}
