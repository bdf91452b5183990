import {
  allocateOffering,
  createOffering,
  failIssuance,
  listOfferingSubscriptions,
  listOfferings,
  listUserSubscriptions,
  rejectSubscription,
  releaseUnlocked,
  subscribe,
} from "@northstar/domain/launchpad";
import { ZPageRequestSchema } from "@northstar/shared/contracts/funding";
import {
  ZLaunchpadOfferingInputSchema,
  ZLaunchpadSubscribeSchema,
} from "@northstar/shared/contracts/launchpad";
import { z } from "zod";
import { onceByKey } from "../../idempotency.ts";
import { authedProcedure, moneyProcedure, operatorProcedure, publicProcedure, router } from "../../init.ts";

/** New-coin subscription for users: offerings, subscribing (once per key), my records. */
export const launchpadRouter = router({
  offerings: publicProcedure.query(({ ctx }) => listOfferings(ctx.deps.db)),
  subscribe: moneyProcedure
    .input(ZLaunchpadSubscribeSchema)
    .mutation(({ ctx, input }) =>
      onceByKey(ctx, "launchpad.subscribe", input, (once) =>
        subscribe(ctx.deps.db, ctx.auth.user, input, new Date(), once),
      ),
    ),
  records: authedProcedure
    .input(ZPageRequestSchema)
    .query(({ ctx, input }) =>
      listUserSubscriptions(ctx.deps.db, ctx.auth.user.id, input.page, input.page_size),
    ),
});

const actor = (op: { id: number }) => (op.id === 0 ? "cli" : `operator:${op.id}`);
const zId = z.object({ id: z.coerce.number().int().positive() });

/**
 * The back office of new-coin offerings: create, allocate at the close, fail the issuance, unlock;
 * an offering's subscriptions, and rejecting one under review.
 */
export const adminLaunchpadRouter = router({
  offerings: operatorProcedure("products.read").query(({ ctx }) => listOfferings(ctx.deps.db)),
  create: operatorProcedure("catalogue.manage")
    .input(ZLaunchpadOfferingInputSchema)
    .mutation(({ ctx, input }) => createOffering(ctx.deps.db, input, actor(ctx.operator))),
  allocate: operatorProcedure("catalogue.manage")
    .input(zId)
    .mutation(({ ctx, input }) => allocateOffering(ctx.deps.db, input.id, actor(ctx.operator))),
  fail: operatorProcedure("catalogue.manage")
    .input(zId.extend({ reason: z.string().trim().min(1).max(200) }))
    .mutation(({ ctx, input }) => failIssuance(ctx.deps.db, input.id, input.reason, actor(ctx.operator))),
  unlock: operatorProcedure("jobs.run").mutation(({ ctx }) => releaseUnlocked(ctx.deps.db)),
  subscriptions: operatorProcedure("products.read")
    .input(ZPageRequestSchema.extend({ offering_id: z.coerce.number().int().positive() }))
    .query(({ ctx, input }) =>
      listOfferingSubscriptions(ctx.deps.db, input.offering_id, input.page, input.page_size),
    ),
  rejectSubscription: operatorProcedure("catalogue.manage")
    .input(zId.extend({ reason: z.string().trim().min(1).max(200) }))
    .mutation(({ ctx, input }) =>
      rejectSubscription(ctx.deps.db, {
        subscriptionId: input.id,
        reason: input.reason,
        actor: actor(ctx.operator),
      }),
    ),
});
