import { AsyncLocalStorage } from "node:async_hooks";
import type { Redis } from "ioredis";
import type { DbOrTx } from "../db/client.ts";
import { countUnread } from "./unread.ts";

/**
 * Live badges. A message is added inside another module's transaction, so its owner can only be told
 * once that transaction has committed. The request (or job) that may add messages runs inside
 * `collectNudges`, which notes every owner whose messages changed; when it has finished without error
 * `publishNudges` announces each owner's unread count on their `user` socket channel through Redis
 * pub/sub, which every API instance forwards to that user's sockets.
 */
const pending = new AsyncLocalStorage<Set<number>>();

export function noteMessageFor(userId: number): void {
  pending.getStore()?.add(userId);
}

export async function collectNudges<T>(run: () => Promise<T>): Promise<{ result: T; userIds: number[] }> {
  const userIds = new Set<number>();
  const result = await pending.run(userIds, run);
  return { result, userIds: [...userIds] };
}

/** The Redis channel of one user's socket events (the market socket's `user` channel). */
export const userEventsChannel = (prefix: string, userId: number) => `${prefix}:md:user:${userId}`;
const seqKey = (prefix: string, userId: number) => `${prefix}:msg:seq:${userId}`;

/** Tells each user's open sockets their new unread count. Best effort: a failure only delays the badge. */
export async function publishNudges(
  db: DbOrTx,
  redis: Redis,
  prefix: string,
  userIds: readonly number[],
): Promise<void> {
  for (const userId of userIds) {
    await publishUserEvent(redis, prefix, userId, {
      type: "messages",
      unread: await countUnread(db, userId),
    });
  }
}

/**
 * Publishes one event on a user's `user` socket channel, from any process: every API instance holding
 * a socket of that user forwards it. The sequence is per user in Redis, shared by these publishers.
 */
export async function publishUserEvent(
  redis: Redis,
  prefix: string,
  userId: number,
  data: object,
): Promise<void> {
  const seq = await redis.incr(seqKey(prefix, userId));
  await redis.publish(
    userEventsChannel(prefix, userId),
    JSON.stringify({ ch: "user", seq, ts: Date.now(), data }),
  );
}
