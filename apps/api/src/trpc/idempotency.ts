import { type OnceRecorder, runOnce } from "@northstar/domain/idempotency";
import type { Authenticated } from "@northstar/domain/identity";
import type { TrpcContext } from "./init.ts";

/**
 * Runs a money procedure once per Idempotency-Key: a resent request answers the first result. Every
 * money procedure (`moneyProcedure` in ./init.ts) has refused a request without a key before this
 * runs. Keyed calls must not share an HTTP batch: the header belongs to the whole request, so the web
 * sends them unbatched.
 */
export function onceByKey<T>(
  ctx: TrpcContext & { auth: Authenticated; idempotencyKey: string },
  action: string,
  input: Record<string, unknown>,
  run: (once: OnceRecorder | undefined) => Promise<T>,
): Promise<T> {
  return runOnce(ctx.deps.db, { userId: ctx.auth.user.id, key: ctx.idempotencyKey, action, input }, run);
}
