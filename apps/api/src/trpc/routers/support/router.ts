import {
  announceSupportLine,
  listSupportConversations,
  markSupportReadByOperator,
  markSupportReadByUser,
  operatorSupportHistory,
  sendOperatorLine,
  sendUserLine,
  userSupportHistory,
} from "@northstar/domain/support";
import {
  ZSupportHistoryRequestSchema,
  ZSupportReplyRequestSchema,
  ZSupportSendRequestSchema,
} from "@northstar/shared/contracts/messages";
import { z } from "zod";
import { authedProcedure, operatorProcedure, router } from "../../init.ts";

const supportOperator = operatorProcedure("support.chat");

/** Customer service for users: their conversation, writing, reading. */
export const supportRouter = router({
  history: authedProcedure
    .input(ZSupportHistoryRequestSchema)
    .query(({ ctx, input }) =>
      userSupportHistory(ctx.deps.db, ctx.auth.user.id, { beforeId: input.before_id, limit: input.limit }),
    ),
  send: authedProcedure.input(ZSupportSendRequestSchema).mutation(async ({ ctx, input }) => {
    const line = await sendUserLine(ctx.deps.db, ctx.auth.user.id, input);
    await announceSupportLine(ctx.deps.redis, ctx.deps.config.redisPrefix, ctx.auth.user.id, line);
    return line;
  }),
  read: authedProcedure.mutation(async ({ ctx }) => {
    await markSupportReadByUser(ctx.deps.db, ctx.auth.user.id);
    return { ok: true };
  }),
});

/** The operator console: conversations by newest activity, one conversation's lines, replying. */
export const supportAdminRouter = router({
  conversations: supportOperator.query(({ ctx }) => listSupportConversations(ctx.deps.db)),
  history: supportOperator
    .input(ZSupportHistoryRequestSchema.extend({ conversation_id: z.coerce.number().int().positive() }))
    .query(({ ctx, input }) =>
      operatorSupportHistory(ctx.deps.db, input.conversation_id, {
        beforeId: input.before_id,
        limit: input.limit,
      }),
    ),
  read: supportOperator
    .input(z.object({ conversation_id: z.coerce.number().int().positive() }))
    .mutation(async ({ ctx, input }) => {
      await markSupportReadByOperator(ctx.deps.db, input.conversation_id);
      return { ok: true };
    }),
  reply: supportOperator.input(ZSupportReplyRequestSchema).mutation(async ({ ctx, input }) => {
    const { userId, line } = await sendOperatorLine(ctx.deps.db, ctx.operator.id, input);
    await announceSupportLine(ctx.deps.redis, ctx.deps.config.redisPrefix, userId, line);
    return line;
  }),
});
