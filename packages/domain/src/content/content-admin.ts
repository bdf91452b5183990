import {
  BANNER_IMAGE_PATTERN,
  type TArticleSave,
  type TBannerSave,
  type THelpCategorySave,
  type TLocalizedTextInput,
  ZArticleSaveSchema,
  ZBannerSaveSchema,
  ZHelpCategorySaveSchema,
} from "@northstar/shared/contracts/content";
import { LANGUAGES } from "@northstar/shared/languages";
import { and, asc, count, desc, eq, inArray } from "drizzle-orm";
import { recordAudit } from "../audit/index.ts";
import type { DbOrTx } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { banners, contentTexts, helpCategories, type LocalizedText } from "./content.table.ts";
import { sanitizeBody, unix } from "./content-texts.ts";

/** The editor's preview: exactly the body the server would store. */
export function previewBody(html: string): string {
  return sanitizeBody(html);
}

/**
 * Trims titles, sanitises bodies and drops languages left blank. English is the fallback every
 * reader sees when their language is missing, so its title is required.
 */
function cleanTexts(texts: Partial<Record<string, TLocalizedTextInput>>): LocalizedText {
  const out: LocalizedText = {};
  for (const lang of LANGUAGES) {
    const t = texts[lang];
    if (!t) {
      continue;
    }
    const title = t.title.trim();
    const body = sanitizeBody(t.body ?? "");
    if (lang !== "en" && title === "" && body.trim() === "") {
      continue;
    }
    out[lang] = { title, summary: (t.summary ?? "").trim(), body };
  }
  if (!out.en?.title) {
    throw new AppError("CONTENT_TITLE_REQUIRED", {}, "title");
  }
  return out;
}

/** Every article of one kind, drafts included, for the back office. */
export async function listArticlesAdmin(db: DbOrTx, kind: TArticleSave["kind"]) {
  const rows = await db
    .select()
    .from(contentTexts)
    .where(eq(contentTexts.kind, kind))
    .orderBy(asc(contentTexts.sort), desc(contentTexts.publishedAt), desc(contentTexts.id))
    .limit(500);
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    categoryId: r.categoryId,
    texts: r.texts,
    sort: r.sort,
    published: r.published,
    publishedAt: unix(r.publishedAt),
    updatedAt: unix(r.updatedAt),
  }));
}

/** Creates or edits a news item, an announcement or a help article; answers its id. */
export async function saveArticle(db: DbOrTx, raw: TArticleSave, actor: string): Promise<number> {
  const input = ZArticleSaveSchema.parse(raw);
  const texts = cleanTexts(input.texts);
  return db.transaction(async (tx) => {
    let categoryId: number | null = null;
    if (input.kind === "help") {
      const [category] = input.categoryId
        ? await tx
            .select({ id: helpCategories.id })
            .from(helpCategories)
            .where(eq(helpCategories.id, input.categoryId))
        : [];
      if (!category) {
        throw new AppError("HELP_CATEGORY_UNKNOWN", {}, "categoryId");
      }
      categoryId = category.id;
    }
    const now = new Date();
    const values = {
      kind: input.kind,
      categoryId,
      texts,
      sort: input.sort,
      published: input.published,
      updatedAt: now,
    };
    let id: number;
    if (input.id !== undefined) {
      const [existing] = await tx
        .select()
        .from(contentTexts)
        .where(
          and(eq(contentTexts.id, input.id), inArray(contentTexts.kind, ["news", "announcement", "help"])),
        )
        .for("update");
      if (!existing) {
        throw new AppError("NOT_FOUND", {}, "id");
      }
      // A draft's date is the day it goes out, not the day it was first written.
      const publishedAt = input.published && !existing.published ? now : existing.publishedAt;
      await tx
        .update(contentTexts)
        .set({ ...values, publishedAt })
        .where(eq(contentTexts.id, input.id));
      id = input.id;
    } else {
      const [row] = await tx
        .insert(contentTexts)
        .values({ ...values, publishedAt: now })
        .returning({ id: contentTexts.id });
      if (!row) {
        throw new AppError("REQUEST_ERROR");
      }
      id = row.id;
    }
    await recordAudit(tx, {
      actor,
      action: input.id === undefined ? "content.article.create" : "content.article.update",
      subject: `content:${id}`,
      details: { kind: input.kind, published: input.published, languages: Object.keys(texts) },
    });
    return id;
  });
}

/** Publishes or withdraws an article. */
export async function setArticlePublished(db: DbOrTx, id: number, published: boolean, actor: string) {
  await db.transaction(async (tx) => {
    const [existing] = await tx
      .select()
      .from(contentTexts)
      .where(and(eq(contentTexts.id, id), inArray(contentTexts.kind, ["news", "announcement", "help"])))
      .for("update");
    if (!existing) {
      throw new AppError("NOT_FOUND", {}, "id");
    }
    const now = new Date();
    await tx
      .update(contentTexts)
      .set({ published, updatedAt: now, ...(published && !existing.published ? { publishedAt: now } : {}) })
      .where(eq(contentTexts.id, id));
    await recordAudit(tx, {
      actor,
      action: published ? "content.article.publish" : "content.article.unpublish",
      subject: `content:${id}`,
      details: { kind: existing.kind },
    });
  });
}

/** Help categories in their sort order, with how many articles (drafts included) each holds. */
export async function listHelpCategoriesAdmin(db: DbOrTx) {
  const [rows, counts] = await Promise.all([
    db.select().from(helpCategories).orderBy(asc(helpCategories.sort), asc(helpCategories.id)),
    db
      .select({ categoryId: contentTexts.categoryId, n: count() })
      .from(contentTexts)
      .where(eq(contentTexts.kind, "help"))
      .groupBy(contentTexts.categoryId),
  ]);
  const byId = new Map(counts.map((c) => [c.categoryId, c.n]));
  return rows.map((r) => ({ id: r.id, names: r.names, sort: r.sort, articles: byId.get(r.id) ?? 0 }));
}

export async function saveHelpCategory(db: DbOrTx, raw: THelpCategorySave, actor: string): Promise<number> {
  const input = ZHelpCategorySaveSchema.parse(raw);
  const names: Record<string, string> = {};
  for (const lang of LANGUAGES) {
    const name = input.names[lang]?.trim();
    if (name) {
      names[lang] = name;
    }
  }
  if (!names.en) {
    throw new AppError("CONTENT_TITLE_REQUIRED", {}, "names");
  }
  return db.transaction(async (tx) => {
    let id: number;
    if (input.id !== undefined) {
      const [row] = await tx
        .update(helpCategories)
        .set({ names, sort: input.sort, updatedAt: new Date() })
        .where(eq(helpCategories.id, input.id))
        .returning({ id: helpCategories.id });
      if (!row) {
        throw new AppError("HELP_CATEGORY_UNKNOWN", {}, "categoryId");
      }
      id = row.id;
    } else {
      const [row] = await tx
        .insert(helpCategories)
        .values({ names, sort: input.sort })
        .returning({ id: helpCategories.id });
      if (!row) {
        throw new AppError("REQUEST_ERROR");
      }
      id = row.id;
    }
    await recordAudit(tx, {
      actor,
      action: input.id === undefined ? "content.helpCategory.create" : "content.helpCategory.update",
      subject: `helpCategory:${id}`,
      details: { names: names.en, sort: input.sort },
    });
    return id;
  });
}

/** Every banner, drafts and past ones included. */
export async function listBannersAdmin(db: DbOrTx) {
  const rows = await db.select().from(banners).orderBy(asc(banners.sort), asc(banners.id)).limit(500);
  return rows.map((r) => ({
    id: r.id,
    texts: r.texts,
    image: r.image,
    sort: r.sort,
    published: r.published,
    startsAt: r.startsAt ? unix(r.startsAt) : null,
    endsAt: r.endsAt ? unix(r.endsAt) : null,
    updatedAt: unix(r.updatedAt),
  }));
}

export async function saveBanner(db: DbOrTx, raw: TBannerSave, actor: string): Promise<number> {
  const input = ZBannerSaveSchema.parse(raw);
  if (!BANNER_IMAGE_PATTERN.test(input.image) || input.image.includes("..")) {
    throw new AppError("BANNER_IMAGE_INVALID", {}, "image");
  }
  if (input.startsAt && input.endsAt && input.endsAt <= input.startsAt) {
    throw new AppError("BANNER_WINDOW_INVALID", {}, "endsAt");
  }
  const texts = cleanTexts(input.texts);
  const values = {
    texts,
    image: input.image,
    sort: input.sort,
    published: input.published,
    startsAt: input.startsAt ? new Date(input.startsAt * 1000) : null,
    endsAt: input.endsAt ? new Date(input.endsAt * 1000) : null,
    updatedAt: new Date(),
  };
  return db.transaction(async (tx) => {
    let id: number;
    if (input.id !== undefined) {
      const [row] = await tx
        .update(banners)
        .set(values)
        .where(eq(banners.id, input.id))
        .returning({ id: banners.id });
      if (!row) {
        throw new AppError("NOT_FOUND", {}, "id");
      }
      id = row.id;
    } else {
      const [row] = await tx.insert(banners).values(values).returning({ id: banners.id });
      if (!row) {
        throw new AppError("REQUEST_ERROR");
      }
      id = row.id;
    }
    await recordAudit(tx, {
      actor,
      action: input.id === undefined ? "content.banner.create" : "content.banner.update",
      subject: `banner:${id}`,
      details: {
        published: input.published,
        image: input.image,
        startsAt: input.startsAt ?? null,
        endsAt: input.endsAt ?? null,
      },
    });
    return id;
  });
}

export async function setBannerPublished(db: DbOrTx, id: number, published: boolean, actor: string) {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .update(banners)
      .set({ published, updatedAt: new Date() })
      .where(eq(banners.id, id))
      .returning({ id: banners.id });
    if (!row) {
      throw new AppError("NOT_FOUND", {}, "id");
    }
    await recordAudit(tx, {
      actor,
      action: published ? "content.banner.publish" : "content.banner.unpublish",
      subject: `banner:${id}`,
    });
  });
}
