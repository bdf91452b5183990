import { z } from "zod";
import { LANGUAGES } from "../languages.ts";

/** web/getTextsList: a page by id, or a paged list of one kind of article. */
export const ZGetTextsListRequestSchema = z.object({
  id: z.coerce.number().int().positive().optional(),
  kind: z.enum(["news", "announcement", "help"]).default("news"),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  page_size: z.coerce.number().int().min(1).max(50).default(10),
});

export const ZContentItemSchema = z.object({
  id: z.number(),
  kind: z.string(),
  title: z.string(),
  summary: z.string(),
  content: z.string(),
  time: z.number(),
});
export type TContentItem = z.infer<typeof ZContentItemSchema>;

export const ZGetTextsListResponseSchema = z.object({ total: z.number(), list: z.array(ZContentItemSchema) });

/** Limits of operator-written texts; a longer text is refused with CONTENT_TEXT_TOO_LONG. */
export const CONTENT_LIMITS = { title: 120, summary: 300, body: 50_000, categoryName: 60 } as const;

const LANGUAGE_KEY = z.enum(LANGUAGES);
const tooLong = (max: number) => z.string().max(max, "CONTENT_TEXT_TOO_LONG");

/** One language's text of an article or banner. */
export const ZLocalizedTextInputSchema = z.object({
  title: tooLong(CONTENT_LIMITS.title),
  summary: tooLong(CONTENT_LIMITS.summary).default(""),
  body: tooLong(CONTENT_LIMITS.body).default(""),
});
export type TLocalizedTextInput = z.input<typeof ZLocalizedTextInputSchema>;
const ZTextsSchema = z.partialRecord(LANGUAGE_KEY, ZLocalizedTextInputSchema);

export const ARTICLE_KINDS = ["news", "announcement", "help"] as const;
export type ArticleKind = (typeof ARTICLE_KINDS)[number];

/** The back office saves a news item, an announcement or a help article (with its category). */
export const ZArticleSaveSchema = z.object({
  id: z.number().int().positive().optional(),
  kind: z.enum(ARTICLE_KINDS),
  categoryId: z.number().int().positive().nullish(),
  texts: ZTextsSchema,
  sort: z.number().int().min(-10_000).max(10_000).default(0),
  published: z.boolean().default(false),
});
export type TArticleSave = z.input<typeof ZArticleSaveSchema>;

export const ZContentIdSchema = z.object({ id: z.number().int().positive() });
export const ZSetPublishedSchema = z.object({ id: z.number().int().positive(), published: z.boolean() });
export const ZArticleListSchema = z.object({ kind: z.enum(ARTICLE_KINDS) });

export const ZHelpCategorySaveSchema = z.object({
  id: z.number().int().positive().optional(),
  names: z
    .partialRecord(LANGUAGE_KEY, z.string())
    .refine((names) => Object.values(names).every((n) => (n ?? "").length <= CONTENT_LIMITS.categoryName), {
      message: "CONTENT_TEXT_TOO_LONG",
    }),
  sort: z.number().int().min(-10_000).max(10_000).default(0),
});
export type THelpCategorySave = z.input<typeof ZHelpCategorySaveSchema>;

/** A banner's image: a path on this site (the pages' image policy loads only the site's own images). */
export const BANNER_IMAGE_PATTERN = /^\/[A-Za-z0-9][A-Za-z0-9/_.-]{0,200}\.(png|jpe?g|webp|svg)$/;

/** Banners: times are Unix seconds; a window end before its start is refused. */
export const ZBannerSaveSchema = z.object({
  id: z.number().int().positive().optional(),
  texts: ZTextsSchema,
  image: z.string().trim().max(240, "BANNER_IMAGE_INVALID"),
  sort: z.number().int().min(-10_000).max(10_000).default(0),
  published: z.boolean().default(false),
  startsAt: z.number().int().positive().nullish(),
  endsAt: z.number().int().positive().nullish(),
});
export type TBannerSave = z.input<typeof ZBannerSaveSchema>;

/** The editor's live preview: the body as the server will store it. */
export const ZPreviewSchema = z.object({ html: tooLong(CONTENT_LIMITS.body) });
export const ZHelpArticleRequestSchema = z.object({ id: z.number().int().positive() });
