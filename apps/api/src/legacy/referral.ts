import { getPromotion } from "@northstar/domain/referral";
import { translate } from "@northstar/shared/i18n";
import { z } from "zod";
import { defineLegacyCall } from "./define.ts";

/**
 * web/getMyPromotion: my invitation code and link, and per level (1 = the accounts I invited) the
 * share of their trading fees I earn, how many accounts there are and what they have earned me per
 * currency; the same figures as the invitation page. A demo account gets no code or link, `can_invite`
 * 0 and `invite_notice` saying why in the request's language.
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
        // A demo account is shown no code, and why (it cannot invite: switch to the real account).
        can_invite: p.canInvite ? 1 : 0,
        invite_notice: p.canInvite ? "" : translate(ctx.lang, "referral.demoCannotInvite"),
        total_count: p.totalCount,
        total_income: p.totalIncome,
        levels: p.levels.map((l) => ({ level: l.level, rate: l.rate, count: l.count, income: l.income })),
      },
    };
  },
});
