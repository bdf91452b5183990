import {
  issueWalletNonce,
  linkWallet,
  listWallets,
  unlinkWallet,
  walletLogin,
} from "@northstar/domain/identity";
import {
  ZWalletNonceRequestSchema,
  ZWalletSignInRequestSchema,
  ZWalletUnlinkRequestSchema,
} from "@northstar/shared/contracts/wallet-login";
import { addressLimitedProcedure, authedProcedure, publicProcedure, router } from "../../init.ts";

/**
 * Sign-In with Ethereum: the server writes the message to sign (its nonce single-use and
 * short-lived), the wallet signs it, and the signed message signs in or links the wallet.
 */
export const walletLoginRouter = router({
  nonce: publicProcedure.input(ZWalletNonceRequestSchema).mutation(({ ctx, input }) =>
    issueWalletNonce(ctx.deps.db, {
      input,
      purpose: "login",
      ip: ctx.ip,
      site: { publicUrl: ctx.deps.config.publicUrl },
    }),
  ),
  signIn: addressLimitedProcedure("walletLogin.signIn")
    .input(ZWalletSignInRequestSchema)
    .mutation(async ({ ctx, input }) => {
      const { token, created } = await walletLogin(ctx.deps.db, {
        input,
        ip: ctx.ip,
        userAgent: ctx.userAgent,
        language: ctx.lang,
        site: { publicUrl: ctx.deps.config.publicUrl },
      });
      return { token, created };
    }),
  list: authedProcedure.query(({ ctx }) => listWallets(ctx.deps.db, ctx.auth.user.id)),
  linkNonce: authedProcedure.input(ZWalletNonceRequestSchema).mutation(({ ctx, input }) =>
    issueWalletNonce(ctx.deps.db, {
      input,
      purpose: "link",
      userId: ctx.auth.user.id,
      ip: ctx.ip,
      site: { publicUrl: ctx.deps.config.publicUrl },
    }),
  ),
  link: authedProcedure.input(ZWalletSignInRequestSchema).mutation(({ ctx, input }) =>
    linkWallet(ctx.deps.db, ctx.auth.user, {
      input,
      ip: ctx.ip,
      site: { publicUrl: ctx.deps.config.publicUrl },
    }),
  ),
  unlink: authedProcedure.input(ZWalletUnlinkRequestSchema).mutation(async ({ ctx, input }) => {
    await unlinkWallet(ctx.deps.db, ctx.auth.user, input.id);
    return { ok: true };
  }),
});
