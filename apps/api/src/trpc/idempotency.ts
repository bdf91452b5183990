import { type OnceRecorder, runOnce } from "@northstar/domain/idempotency";
import type { Authenticated } from "@northstar/domain/identity";
import type { TrpcContext } from "./init.ts";

/**
 * Runs a money procedure once per Idempotency-Key: a resent request answers the first result. Without
 * the header the action simply runs (older clients, the operator CLI). Keyed calls must not share an
 * HTTP batch: the header belongs to the whole request, so the web sends them unbatched.
 */
export function onceByKey<T>(
  ctx: TrpcContext & { auth: Authenticated },
  action: string,
  input: Record<string, unknown>,
  run: (once: OnceRecorder | undefined) => Promise<T>,
): Promise<T> {
  if (ctx.idempotencyKey === undefined) {
    return run(undefined);
  }
  return runOnce(ctx.deps.db, { userId: ctx.auth.user.id, key: ctx.idempotencyKey, action, input }, run);
}
