import { randomBytes } from "node:crypto";
import { AppError } from "@northstar/domain/errors";
import { hasHashCapacity } from "@northstar/domain/identity";
import { toLanguage } from "@northstar/shared/languages";
import type { FastifyInstance } from "fastify";
import type { AppDeps } from "./deps.ts";
import { sendLegacyRefusal } from "./edge.ts";
import { toRefusal } from "./errors.ts";

/**
 * Per-address limits on the calls strangers can repeat (login, code sending, registration, password
 * reset, demo accounts, operator sign-in): at most `authRatePerMinute` of one call from one address
 * in any 60 seconds. A sliding log in Redis (one sorted set of accepted request times per address and
 * call, trimmed and checked in one script) rather than fixed windows, which let twice the limit through
 * in a burst spanning a window's end. Refused requests are not logged, so retrying does not extend the
 * wait. Checked before the call does any work: no hashing, no attempt counted, no mail.
 */
const WINDOW_MS = 60_000;

// KEYS[1]: the log; ARGV: now (ms), window (ms), limit, a unique member. 1 = accepted, 0 = refused.
const SCRIPT = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', tonumber(ARGV[1]) - tonumber(ARGV[2]))
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then
  return 0
end
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
`;

/** Takes one request of `call` from `address` out of its budget, or refuses with `RATE_LIMITED`. */
export async function takeAddressBudget(deps: AppDeps, call: string, address: string): Promise<void> {
  const now = deps.clock?.() ?? Date.now();
  const key = `${deps.config.redisPrefix}:rl:${call}:${address}`;
  const member = `${now}:${randomBytes(6).toString("base64url")}`;
  const accepted = await deps.redis.eval(
    SCRIPT,
    1,
    key,
    now,
    WINDOW_MS,
    deps.config.authRatePerMinute,
    member,
  );
  if (Number(accepted) !== 1) {
    throw new AppError("RATE_LIMITED");
  }
}

/**
 * Sign-in calls that hash a password for anyone who asks. While this process's hash queue has no
 * room for anonymous work they are refused as busy on arrival (`SERVER_BUSY`, translated), before
 * their body is read: under a flood, what is refused must cost next to nothing, or the refusals
 * alone would take the event loop from signed-in users.
 */
const HASHING_SIGN_INS = ["/trpc/admin.login", "/web/userLogin"];

export function registerBusyRefusal(app: FastifyInstance): void {
  app.addHook("onRequest", async (request, reply) => {
    const path = request.url.split("?")[0] ?? "";
    if (!HASHING_SIGN_INS.includes(path) || hasHashCapacity("anonymous")) {
      return;
    }
    if (path.startsWith("/web/")) {
      return sendLegacyRefusal(request, reply, "SERVER_BUSY");
    }
    const refusal = toRefusal(new AppError("SERVER_BUSY"), toLanguage(request.headers.lang));
    return reply.status(400).send({
      error: {
        message: refusal.message,
        code: -32600,
        data: {
          code: "BAD_REQUEST",
          httpStatus: 400,
          responseCode: refusal.code,
          errorCode: refusal.errorCode,
          field: null,
        },
      },
    });
  });
}
