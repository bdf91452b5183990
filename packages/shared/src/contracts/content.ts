import { z } from "zod";

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
