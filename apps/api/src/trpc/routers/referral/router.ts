import {
  getPromotion,
  listMyReferralRewards,
  listReferralPayouts,
  runReferralDay,
  runReferralRewards,
} from "@northstar/domain/referral";
import {
  ZReferralPayoutsRequestSchema,
  ZReferralRunRequestSchema,
} from "@northstar/shared/contracts/referral";
import { z } from "zod";
import { authedProcedure, operatorProcedure, router } from "../../init.ts";

/** The invitation page: my code, link, and count and income by level; my daily rewards. */
export const referralRouter = router({
  mine: authedProcedure.query(({ ctx }) =>
    getPromotion(ctx.deps.db, ctx.auth.user.id, ctx.deps.config.publicUrl),
  ),
  rewards: authedProcedure
    .input(
      z.object({
        page: z.coerce.number().int().min(1).max(10_000).default(1),
        page_size: z.coerce.number().int().min(1).max(100).default(30),
      }),
    )
    .query(({ ctx, input }) =>
      listMyReferralRewards(ctx.deps.db, ctx.auth.user.id, input.page, input.page_size),
    ),
});

const finance = operatorProcedure("products.read");

/** The back office of referrals: the payouts (one per day, inviter and currency) and the runs. */
export const referralAdminRouter = router({
  payouts: finance
    .input(ZReferralPayoutsRequestSchema)
    .query(({ ctx, input }) =>
      listReferralPayouts(ctx.deps.db, { day: input.day, page: input.page, pageSize: input.page_size }),
    ),
  /** Pays one ended day now (idempotent: a paid day pays nothing), for operators and the CLI. */
  runDay: operatorProcedure("jobs.run")
    .input(ZReferralRunRequestSchema)
    .mutation(({ ctx, input }) => runReferralDay(ctx.deps.db, input.day)),
  /** What the daily job runs: every ended day not paid yet. */
  runDue: operatorProcedure("jobs.run").mutation(({ ctx }) => runReferralRewards(ctx.deps.db)),
});
