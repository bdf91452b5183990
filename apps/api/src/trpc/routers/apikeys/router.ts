import {
  createApiKey,
  deleteApiKey,
  listApiKeys,
  listUserApiKeysForOperator,
  setApiKeyBlocked,
  setApiKeyEnabled,
  updateApiKey,
} from "@northstar/domain/apikeys";
import {
  ZApiKeyIdSchema,
  ZCreateApiKeyRequestSchema,
  ZSetApiKeyEnabledSchema,
  ZUpdateApiKeyRequestSchema,
} from "@northstar/shared/contracts/apikeys";
import { z } from "zod";
import type { AppDeps } from "../../../http/deps.ts";
import { authedProcedure, operatorActor, operatorProcedure, router } from "../../init.ts";

/** Where key changes are announced to every API process's key cache. */
const revisionsOf = (deps: AppDeps) => ({ redis: deps.redis, prefix: deps.config.redisPrefix });

/** The security centre's API keys: each procedure calls one service of the apikeys module. */
export const apiKeysRouter = router({
  list: authedProcedure.query(({ ctx }) => listApiKeys(ctx.deps.db, ctx.auth.user)),
  /** The only answer that carries the secret. */
  create: authedProcedure
    .input(ZCreateApiKeyRequestSchema)
    .mutation(({ ctx, input }) => createApiKey(ctx.deps.db, ctx.auth.user, input)),
  update: authedProcedure
    .input(ZUpdateApiKeyRequestSchema)
    .mutation(({ ctx, input }) => updateApiKey(ctx.deps.db, revisionsOf(ctx.deps), ctx.auth.user, input)),
  setEnabled: authedProcedure
    .input(ZSetApiKeyEnabledSchema)
    .mutation(({ ctx, input }) =>
      setApiKeyEnabled(ctx.deps.db, revisionsOf(ctx.deps), ctx.auth.user, input.id, input.enabled),
    ),
  delete: authedProcedure.input(ZApiKeyIdSchema).mutation(async ({ ctx, input }) => {
    await deleteApiKey(ctx.deps.db, revisionsOf(ctx.deps), ctx.auth.user, input.id);
    return { ok: true as const };
  }),
});

/** Operators see a user's keys and block one (or lift the block), audited. */
export const apiKeysAdminRouter = router({
  list: operatorProcedure("users.read")
    .input(z.object({ user_id: z.coerce.number().int().positive() }))
    .query(({ ctx, input }) => listUserApiKeysForOperator(ctx.deps.db, input.user_id)),
  setBlocked: operatorProcedure("users.freeze")
    .input(
      z.object({
        id: z.coerce.number().int().positive(),
        blocked: z.boolean(),
        reason: z.string().trim().max(200).optional(),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const row = await setApiKeyBlocked(ctx.deps.db, revisionsOf(ctx.deps), {
        id: input.id,
        blocked: input.blocked,
        actor: operatorActor(ctx.operator),
        ...(input.reason ? { reason: input.reason } : {}),
      });
      return { id: row.id, status: row.status };
    }),
});
