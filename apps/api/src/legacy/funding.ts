import { getAssets, listCurrencies } from "@northstar/domain/funding";
import { createDemoAccount } from "@northstar/domain/identity";
import { ZDemoLoginRequestSchema } from "@northstar/shared/contracts/funding";
import { z } from "zod";
import { defineLegacyCall } from "./define.ts";

/** web/getAsset2: the asset screens' rows (every account type, every currency) and USDT totals. */
export const getAsset2 = defineLegacyCall({
  name: "getAsset2",
  auth: "required",
  input: z.object({}),
  async handle(ctx) {
    const user = ctx.auth?.user;
    if (!user) {
      throw new Error("auth required");
    }
    const assets = await getAssets(ctx.deps.db, ctx.deps.prices, user);
    return {
      data: {
        book: assets.book,
        total_usdt: assets.totalUsdt,
        totals: assets.totals,
        list: assets.rows.map((r) => ({
          wallet: r.wallet,
          currency: r.currency,
          name: r.name,
          decimals: r.displayDecimals,
          available: r.available,
          frozen: r.frozen,
          value_usdt: r.valueUsdt,
        })),
      },
    };
  },
});

/** web/getCurrencyAll: the currencies the platform holds, with their USDT price when known. */
export const getCurrencyAll = defineLegacyCall({
  name: "getCurrencyAll",
  auth: "none",
  input: z.object({}),
  async handle(ctx) {
    const rows = await listCurrencies(ctx.deps.db);
    const list = await Promise.all(
      rows.map(async (c) => ({
        currency: c.code,
        name: c.name,
        decimals: c.displayDecimals,
        price_usdt: await ctx.deps.prices.priceInUsdt(c.code),
      })),
    );
    return { data: { list } };
  },
});

/** web/tempLogin: a demo account with the chosen simulated amount; answers a token like login. */
export const tempLogin = defineLegacyCall({
  name: "tempLogin",
  auth: "none",
  event: "login",
  input: ZDemoLoginRequestSchema,
  async handle(ctx, input) {
    const { token } = await createDemoAccount(ctx.deps.db, {
      amount: input.amount,
      lang: ctx.lang,
      ip: ctx.ip,
      userAgent: ctx.userAgent,
    });
    return { data: { token }, messageKey: "api.loginOk" };
  },
});
