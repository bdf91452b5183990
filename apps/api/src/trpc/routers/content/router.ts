import {
  getBannerDetail,
  getHelpArticle,
  getHelpCentre,
  listActiveBanners,
  listArticlesAdmin,
  listBannersAdmin,
  listHelpCategoriesAdmin,
  previewBody,
  saveArticle,
  saveBanner,
  saveHelpCategory,
  setArticlePublished,
  setBannerPublished,
} from "@northstar/domain/content";
import {
  ZArticleListSchema,
  ZArticleSaveSchema,
  ZBannerSaveSchema,
  ZContentIdSchema,
  ZHelpCategorySaveSchema,
  ZPreviewSchema,
  ZSetPublishedSchema,
} from "@northstar/shared/contracts/content";
import { operatorActor, operatorProcedure, publicProcedure, router } from "../../init.ts";

/** The help centre and the home page's banners, open without a session, in the caller's language. */
export const contentRouter = router({
  helpCentre: publicProcedure.query(({ ctx }) => getHelpCentre(ctx.deps.db, ctx.lang)),
  helpArticle: publicProcedure
    .input(ZContentIdSchema)
    .query(({ ctx, input }) => getHelpArticle(ctx.deps.db, ctx.lang, input.id)),
  banners: publicProcedure.query(({ ctx }) => listActiveBanners(ctx.deps.db, ctx.lang)),
  banner: publicProcedure
    .input(ZContentIdSchema)
    .query(({ ctx, input }) => getBannerDetail(ctx.deps.db, ctx.lang, input.id)),
});

const edit = operatorProcedure("content.edit");

/** The back office's article editor: news, announcements, help articles and categories, banners. */
export const contentAdminRouter = router({
  articles: edit
    .input(ZArticleListSchema)
    .query(({ ctx, input }) => listArticlesAdmin(ctx.deps.db, input.kind)),
  saveArticle: edit.input(ZArticleSaveSchema).mutation(async ({ ctx, input }) => ({
    id: await saveArticle(ctx.deps.db, input, operatorActor(ctx.operator)),
  })),
  setArticlePublished: edit
    .input(ZSetPublishedSchema)
    .mutation(({ ctx, input }) =>
      setArticlePublished(ctx.deps.db, input.id, input.published, operatorActor(ctx.operator)),
    ),
  helpCategories: edit.query(({ ctx }) => listHelpCategoriesAdmin(ctx.deps.db)),
  saveHelpCategory: edit.input(ZHelpCategorySaveSchema).mutation(async ({ ctx, input }) => ({
    id: await saveHelpCategory(ctx.deps.db, input, operatorActor(ctx.operator)),
  })),
  banners: edit.query(({ ctx }) => listBannersAdmin(ctx.deps.db)),
  saveBanner: edit.input(ZBannerSaveSchema).mutation(async ({ ctx, input }) => ({
    id: await saveBanner(ctx.deps.db, input, operatorActor(ctx.operator)),
  })),
  setBannerPublished: edit
    .input(ZSetPublishedSchema)
    .mutation(({ ctx, input }) =>
      setBannerPublished(ctx.deps.db, input.id, input.published, operatorActor(ctx.operator)),
    ),
  /** The body as the server would store it, for the editor's live preview; stores nothing. */
  preview: edit.input(ZPreviewSchema).mutation(({ input }) => ({ html: previewBody(input.html) })),
});
