import { getSiteSettings, getTextsList as listTexts } from "@northstar/domain/content";
import { ZGetTextsListRequestSchema } from "@northstar/shared/contracts/content";
import { z } from "zod";
import { defineLegacyCall } from "./define.ts";

export const getLogo = defineLegacyCall({
  name: "getLogo",
  auth: "none",
  input: z.object({}),
  async handle(ctx) {
    const site = await getSiteSettings(ctx.deps.db);
    return { data: { name: site.name, logo: site.logo, support_email: site.supportEmail } };
  },
});

export const getTextsList = defineLegacyCall({
  name: "getTextsList",
  auth: "none",
  input: ZGetTextsListRequestSchema,
  async handle(ctx, input) {
    const data = await listTexts(ctx.deps.db, {
      lang: ctx.lang,
      id: input.id,
      kind: input.kind,
      page: input.page,
      pageSize: input.page_size,
    });
    return { data: { ...data, page: input.page, page_size: input.page_size } };
  },
});
