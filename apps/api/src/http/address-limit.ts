import { randomBytes } from "node:crypto";
import { AppError } from "@northstar/domain/errors";
import type { AppDeps } from "./deps.ts";

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
