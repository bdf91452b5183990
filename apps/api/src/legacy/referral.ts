import { getPromotion } from "@northstar/domain/referral";
import { z } from "zod";
import { defineLegacyCall } from "./define.ts";

/**
 * web/getMyPromotion: my invitation code and link, and per level (1 = the accounts I invited) the
 * share of their trading fees I earn, how many accounts there are and what they have earned me per
 * currency; the same figures as the invitation page.
 */
export const getMyPromotion = defineLegacyCall({
  name: "getMyPromotion",
  auth: "required",
  input: z.object({}),
  async handle(ctx) {
    if (!ctx.auth) {
      throw new Error("auth required");
    }
    const p = await getPromotion(ctx.deps.db, ctx.auth.user.id, ctx.deps.config.publicUrl);
    return {
      data: {
        invitation_code: p.code,
        invite_link: p.link,
        total_count: p.totalCount,
        total_income: p.totalIncome,
        levels: p.levels.map((l) => ({ level: l.level, rate: l.rate, count: l.count, income: l.income })),
      },
    };
  },
});
