import {
  claimSignIn,
  fundMarketingBudget,
  getMarketingBudget,
  getSignInStatus,
  listRewardTasks,
  listSignInClaims,
} from "@northstar/domain/rewards";
import {
  ZMarketingBudgetFundRequestSchema,
  ZSignInClaimRequestSchema,
  ZSignInStatusRequestSchema,
} from "@northstar/shared/contracts/rewards";
import { onceByKey } from "../../idempotency.ts";
import { authedProcedure, moneyProcedure, operatorProcedure, publicProcedure, router } from "../../init.ts";

/** The reward centre: its tasks and rewards (public), my sign-in cycle, claiming today's reward. */
export const rewardsRouter = router({
  tasks: publicProcedure.query(({ ctx }) => listRewardTasks(ctx.deps.db)),
  signIn: authedProcedure
    .input(ZSignInStatusRequestSchema)
    .query(({ ctx, input }) => getSignInStatus(ctx.deps.db, ctx.auth.user.id, input.time_zone)),
  claims: authedProcedure.query(({ ctx }) => listSignInClaims(ctx.deps.db, ctx.auth.user.id)),
  /** A money action (it credits the day's reward): sent with an Idempotency-Key, a resend answers the first claim. */
  claim: moneyProcedure
    .input(ZSignInClaimRequestSchema)
    .mutation(({ ctx, input }) =>
      onceByKey(ctx, "rewards.claim", input, () => claimSignIn(ctx.deps.db, ctx.auth.user, input.time_zone)),
    ),
});

const actor = (op: { id: number }) => (op.id === 0 ? "cli" : `operator:${op.id}`);

/** The marketing budget in the back office: balances, what rewards paid, funding it (audited). */
export const rewardsAdminRouter = router({
  budget: operatorProcedure("products.read").query(({ ctx }) => getMarketingBudget(ctx.deps.db)),
  fundBudget: operatorProcedure("products.operate")
    .input(ZMarketingBudgetFundRequestSchema)
    // The request's Idempotency-Key (per operator) makes a resent funding apply once.
    .mutation(({ ctx, input }) =>
      fundMarketingBudget(ctx.deps.db, {
        ...input,
        actor: actor(ctx.operator),
        key: ctx.idempotencyKey === undefined ? undefined : `${ctx.operator.id}:${ctx.idempotencyKey}`,
      }),
    ),
});
