import { latestBankCard } from "@northstar/domain/funding";
import {
  getSessionInfo,
  loginUser,
  registerUser,
  requestCode,
  updatePassword,
} from "@northstar/domain/identity";
import {
  ZGetCodeRequestSchema,
  ZLoginRequestSchema,
  ZRegisterRequestSchema,
  ZUpdatePasswordRequestSchema,
} from "@northstar/shared/contracts/identity";
import { z } from "zod";
import { defineLegacyCall } from "./define.ts";

export const userLogin = defineLegacyCall({
  name: "userLogin",
  auth: "none",
  event: "login",
  input: ZLoginRequestSchema,
  async handle(ctx, input) {
    const { token } = await loginUser(ctx.deps.db, { input, ip: ctx.ip, userAgent: ctx.userAgent });
    return { data: { token }, messageKey: "api.loginOk" };
  },
});

export const getCode = defineLegacyCall({
  name: "getCode",
  auth: "optional",
  input: ZGetCodeRequestSchema,
  async handle(ctx, input) {
    const { resendSeconds } = await requestCode(ctx.deps.db, ctx.deps.notifier, {
      input,
      user: ctx.auth?.user,
      lang: ctx.lang,
      ip: ctx.ip,
    });
    return { data: { resend_seconds: resendSeconds }, messageKey: "api.codeSent" };
  },
});

export const userRegister = defineLegacyCall({
  name: "userRegister",
  auth: "none",
  event: "register",
  input: ZRegisterRequestSchema,
  async handle(ctx, input) {
    const { token } = await registerUser(ctx.deps.db, {
      input,
      lang: ctx.lang,
      ip: ctx.ip,
      userAgent: ctx.userAgent,
    });
    // `wap_token` is the mobile-web clients' name for the same token.
    return { data: { token, wap_token: token }, messageKey: "api.registerOk" };
  },
});

export const info = defineLegacyCall({
  name: "info",
  auth: "required",
  input: z.object({}),
  async handle(ctx) {
    const auth = ctx.auth;
    if (!auth) {
      throw new Error("auth required");
    }
    const data = await getSessionInfo(ctx.deps.db, {
      user: auth.user,
      token: auth.token,
      language: ctx.lang,
      publicUrl: ctx.deps.config.publicUrl,
      bankCard: await latestBankCard(ctx.deps.db, auth.user.id),
    });
    return { data };
  },
});

export const updatePasswordCall = defineLegacyCall({
  name: "updatePassword",
  auth: "optional",
  input: ZUpdatePasswordRequestSchema,
  async handle(ctx, input) {
    await updatePassword(ctx.deps.db, {
      input,
      session: ctx.auth ? { user: ctx.auth.user, sessionId: ctx.auth.sessionId } : undefined,
    });
    return { messageKey: "api.passwordUpdated" };
  },
});

export const hasTpassword = defineLegacyCall({
  name: "hasTpassword",
  auth: "required",
  input: z.object({}),
  async handle(ctx) {
    return { data: { has: ctx.auth?.user.tradePasswordHash ? 1 : 0 } };
  },
});
