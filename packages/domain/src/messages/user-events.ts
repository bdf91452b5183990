import type { Redis } from "ioredis";

/** The Redis channel of one user's socket events (the market socket's `user` channel). */
export const userEventsChannel = (prefix: string, userId: number) => `${prefix}:md:user:${userId}`;
const userSeqKey = (prefix: string, userId: number) => `${prefix}:msg:seq:${userId}`;
/** A quiet user's counter is dropped after a week; a new one starts above it (see below). */
const SEQ_TTL_MS = 7 * 24 * 3600 * 1000;

/*
 * Several processes publish on one user's channel (the matcher, option settlement, the risk engine,
 * messages, support), and the socket's client expects each update to be the previous seq plus one.
 * So the sequence lives in Redis and one script takes the next number and publishes with it: two
 * publishers can neither take the same number nor publish out of order. A counter that does not exist
 * starts at the time in ms × 1000, above any counter it replaces, so clients see a gap and resubscribe.
 * The number is read back with GET, as a string, since Lua would print a large number in exponent form.
 */
const PUBLISH_SEQUENCED = `
if redis.call('exists', KEYS[1]) == 0 then redis.call('set', KEYS[1], ARGV[1]) end
redis.call('incr', KEYS[1])
redis.call('pexpire', KEYS[1], ARGV[2])
local seq = redis.call('get', KEYS[1])
redis.call('publish', KEYS[2], ARGV[3] .. seq .. ARGV[4])
return seq`;

export interface SequencedEvent {
  /** The Redis key holding the channel's sequence. */
  seqKey: string;
  /** The Redis pub/sub channel. */
  channel: string;
  /** The channel's name as the client knows it (`user`, `support`). */
  ch: string;
  data: unknown;
}

/** The script as a command of the connection: sent once per socket, then called by its SHA1. */
type WithPublish = { northstarPublishSequenced(...args: string[]): unknown };
const scripted = new WeakSet<Redis>();

/** Publishes events, each with the next number of its channel's shared sequence, in one round trip. */
export async function publishSequenced(redis: Redis, events: readonly SequencedEvent[]): Promise<void> {
  if (events.length === 0) {
    return;
  }
  if (!scripted.has(redis)) {
    // EVALSHA instead of the script's text with every event (ioredis sends the text once per socket,
    // and again if the server answers that it lost it, as after a restart).
    redis.defineCommand("northstarPublishSequenced", { numberOfKeys: 2, lua: PUBLISH_SEQUENCED });
    scripted.add(redis);
  }
  const pipeline = redis.pipeline() as unknown as WithPublish & ReturnType<Redis["pipeline"]>;
  for (const event of events) {
    const ts = Date.now();
    pipeline.northstarPublishSequenced(
      event.seqKey,
      event.channel,
      String(ts * 1000),
      String(SEQ_TTL_MS),
      `{"ch":${JSON.stringify(event.ch)},"seq":`,
      `,"ts":${ts},"data":${JSON.stringify(event.data)}}`,
    );
  }
  // A pipeline reports failed commands in its results, not by rejecting: surface them.
  const failed = (await pipeline.exec())?.find(([error]) => error);
  if (failed) {
    throw failed[0];
  }
}

export const userEvent = (prefix: string, userId: number, data: unknown): SequencedEvent => ({
  seqKey: userSeqKey(prefix, userId),
  channel: userEventsChannel(prefix, userId),
  ch: "user",
  data,
});

/**
 * Publishes events on users' `user` socket channels, from any process: every API instance holding a
 * socket of that user forwards them. Every publisher on that channel goes through here.
 */
export function publishUserEvents(
  redis: Redis,
  prefix: string,
  events: readonly { userId: number; data: unknown }[],
): Promise<void> {
  return publishSequenced(
    redis,
    events.map((e) => userEvent(prefix, e.userId, e.data)),
  );
}

export function publishUserEvent(redis: Redis, prefix: string, userId: number, data: unknown): Promise<void> {
  return publishUserEvents(redis, prefix, [{ userId, data }]);
}
