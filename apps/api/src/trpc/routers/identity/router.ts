import { latestBankCard } from "@northstar/domain/funding";
import {
  bindEmail,
  bindPhone,
  changeTradePassword,
  getSessionInfo,
  revokeSession,
  setSecurityQuestions,
  setTradePassword,
  updateLanguage,
  updateNickname,
  verifySecurityAnswer,
} from "@northstar/domain/identity";
import {
  ZBindEmailRequestSchema,
  ZBindPhoneRequestSchema,
  ZChangeTradePasswordRequestSchema,
  ZSetSecurityQuestionsRequestSchema,
  ZSetTradePasswordRequestSchema,
  ZUpdateProfileRequestSchema,
  ZVerifySecurityAnswerRequestSchema,
} from "@northstar/shared/contracts/identity";
import { LANGUAGES } from "@northstar/shared/languages";
import { z } from "zod";
import { authedProcedure, router } from "../../init.ts";

/** Account and security procedures of the signed-in user; each calls one domain service. */
export const identityRouter = router({
  get: authedProcedure.query(async ({ ctx }) =>
    getSessionInfo(ctx.deps.db, {
      user: ctx.auth.user,
      token: ctx.auth.token,
      language: ctx.lang,
      publicUrl: ctx.deps.config.publicUrl,
      // Bank cards belong to funding, above identity: the API composes the answer.
      bankCard: await latestBankCard(ctx.deps.db, ctx.auth.user.id),
    }),
  ),
  logout: authedProcedure.mutation(async ({ ctx }) => {
    await revokeSession(ctx.deps.db, ctx.auth.sessionId, "logout");
    return { ok: true };
  }),
  setTradePassword: authedProcedure.input(ZSetTradePasswordRequestSchema).mutation(async ({ ctx, input }) => {
    await setTradePassword(ctx.deps.db, ctx.auth.user, input);
    return { ok: true };
  }),
  changeTradePassword: authedProcedure
    .input(ZChangeTradePasswordRequestSchema)
    .mutation(async ({ ctx, input }) => {
      await changeTradePassword(ctx.deps.db, ctx.auth.user, input);
      return { ok: true };
    }),
  bindEmail: authedProcedure.input(ZBindEmailRequestSchema).mutation(async ({ ctx, input }) => {
    await bindEmail(ctx.deps.db, ctx.auth.user, input);
    return { ok: true };
  }),
  bindPhone: authedProcedure.input(ZBindPhoneRequestSchema).mutation(async ({ ctx, input }) => {
    await bindPhone(ctx.deps.db, ctx.auth.user, input);
    return { ok: true };
  }),
  setSecurityQuestions: authedProcedure
    .input(ZSetSecurityQuestionsRequestSchema)
    .mutation(async ({ ctx, input }) => {
      await setSecurityQuestions(ctx.deps.db, ctx.auth.user, input);
      return { ok: true };
    }),
  verifySecurityAnswer: authedProcedure
    .input(ZVerifySecurityAnswerRequestSchema)
    .mutation(async ({ ctx, input }) => {
      await verifySecurityAnswer(ctx.deps.db, ctx.auth.user, input);
      return { ok: true };
    }),
  updateNickname: authedProcedure.input(ZUpdateProfileRequestSchema).mutation(async ({ ctx, input }) => {
    await updateNickname(ctx.deps.db, ctx.auth.user, input.nickname);
    return { ok: true };
  }),
  updateLanguage: authedProcedure
    .input(z.object({ language: z.enum(LANGUAGES) }))
    .mutation(async ({ ctx, input }) => {
      await updateLanguage(ctx.deps.db, ctx.auth.user.id, input.language);
      return { ok: true };
    }),
});
