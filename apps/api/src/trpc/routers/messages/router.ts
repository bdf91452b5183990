import { countUnread, listMessages, markAllMessagesRead, markMessageRead } from "@northstar/domain/messages";
import { ZMessageIdRequestSchema, ZMessageListRequestSchema } from "@northstar/shared/contracts/messages";
import { authedProcedure, router } from "../../init.ts";

/** The signed-in user's own messages: the list in their language, the unread count, marking read. */
export const messagesRouter = router({
  list: authedProcedure.input(ZMessageListRequestSchema).query(({ ctx, input }) =>
    listMessages(ctx.deps.db, ctx.auth.user.id, ctx.lang, {
      page: input.page,
      pageSize: input.page_size,
      unreadOnly: input.unread_only,
    }),
  ),
  unread: authedProcedure.query(async ({ ctx }) => ({
    unread: await countUnread(ctx.deps.db, ctx.auth.user.id),
  })),
  read: authedProcedure
    .input(ZMessageIdRequestSchema)
    .mutation(({ ctx, input }) => markMessageRead(ctx.deps.db, ctx.auth.user.id, input.id)),
  readAll: authedProcedure.mutation(({ ctx }) => markAllMessagesRead(ctx.deps.db, ctx.auth.user.id)),
});
