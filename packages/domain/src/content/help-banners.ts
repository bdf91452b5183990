import type { Language } from "@northstar/shared/languages";
import { and, asc, desc, eq, gt, isNull, lte, or } from "drizzle-orm";
import type { DbOrTx } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { banners, contentTexts, helpCategories } from "./content.table.ts";
import { pickText, unix } from "./content-texts.ts";

/** A category name in the reader's language, English when that one is missing. */
export function categoryName(names: Record<string, string>, lang: Language): string {
  return names[lang]?.trim() || names.en?.trim() || Object.values(names).find((n) => n.trim()) || "";
}

export interface HelpCentreCategory {
  /** 0 groups published help articles that have no category (older texts). */
  id: number;
  name: string;
  articles: { id: number; title: string; summary: string }[];
}

/**
 * The help centre: categories in their sort order, each with its published articles in theirs.
 * Categories without a published article are left out.
 */
export async function getHelpCentre(db: DbOrTx, lang: Language): Promise<HelpCentreCategory[]> {
  const [categories, articles] = await Promise.all([
    db.select().from(helpCategories).orderBy(asc(helpCategories.sort), asc(helpCategories.id)),
    db
      .select()
      .from(contentTexts)
      .where(and(eq(contentTexts.kind, "help"), eq(contentTexts.published, true)))
      .orderBy(asc(contentTexts.sort), desc(contentTexts.publishedAt), desc(contentTexts.id)),
  ]);
  const byCategory = new Map<number, HelpCentreCategory["articles"]>();
  for (const row of articles) {
    const key = row.categoryId ?? 0;
    const t = pickText(row.texts, lang);
    byCategory.set(key, [
      ...(byCategory.get(key) ?? []),
      { id: row.id, title: t.title, summary: t.summary ?? "" },
    ]);
  }
  const out: HelpCentreCategory[] = categories.flatMap((c) => {
    const list = byCategory.get(c.id);
    return list ? [{ id: c.id, name: categoryName(c.names, lang), articles: list }] : [];
  });
  const loose = byCategory.get(0);
  return loose ? [...out, { id: 0, name: "", articles: loose }] : out;
}

/** One published help article with its category, in the reader's language. */
export async function getHelpArticle(db: DbOrTx, lang: Language, id: number) {
  const [row] = await db
    .select({ article: contentTexts, category: helpCategories })
    .from(contentTexts)
    .leftJoin(helpCategories, eq(helpCategories.id, contentTexts.categoryId))
    .where(and(eq(contentTexts.id, id), eq(contentTexts.kind, "help"), eq(contentTexts.published, true)));
  if (!row) {
    throw new AppError("NOT_FOUND");
  }
  const t = pickText(row.article.texts, lang);
  return {
    id: row.article.id,
    title: t.title,
    summary: t.summary ?? "",
    content: t.body,
    time: unix(row.article.updatedAt),
    category: row.category ? { id: row.category.id, name: categoryName(row.category.names, lang) } : null,
  };
}

/** Published banners whose window holds `now`. */
const showing = (now: Date) =>
  and(
    eq(banners.published, true),
    or(isNull(banners.startsAt), lte(banners.startsAt, now)),
    or(isNull(banners.endsAt), gt(banners.endsAt, now)),
  );

/** The home page's carousel: banners showing now, in their sort order. */
export async function listActiveBanners(db: DbOrTx, lang: Language, now = new Date()) {
  const rows = await db
    .select()
    .from(banners)
    .where(showing(now))
    .orderBy(asc(banners.sort), asc(banners.id));
  return rows.map((row) => {
    const t = pickText(row.texts, lang);
    return { id: row.id, title: t.title, summary: t.summary ?? "", image: row.image };
  });
}

/** /bannerDetail: a banner showing now, with its article. */
export async function getBannerDetail(db: DbOrTx, lang: Language, id: number, now = new Date()) {
  const [row] = await db
    .select()
    .from(banners)
    .where(and(eq(banners.id, id), showing(now)));
  if (!row) {
    throw new AppError("NOT_FOUND");
  }
  const t = pickText(row.texts, lang);
  return {
    id: row.id,
    title: t.title,
    summary: t.summary ?? "",
    content: t.body,
    image: row.image,
    time: unix(row.startsAt ?? row.updatedAt),
  };
}
