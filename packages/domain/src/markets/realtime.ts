import type { ChannelMessage, MarketChannel, Ticker } from "@northstar/shared/markets";
import type { Redis } from "ioredis";

/*
 * Market data crosses processes through Redis: the publisher (the worker's feed, later the matcher)
 * writes each channel's latest full state to a snapshot key and publishes the update on a pub/sub
 * channel; every API instance forwards updates to its sockets and reads snapshots for new subscribers.
 */
export const pubsubChannel = (prefix: string, ch: MarketChannel) => `${prefix}:md:${ch}`;
export const snapshotKey = (prefix: string, ch: MarketChannel) => `${prefix}:md:snap:${ch}`;
/** The Redis channel of one user's private events (the socket's `user` channel). */
export const userChannel = (userId: number) => `user:${userId}`;

/** Reads a channel's latest snapshot, or null when nothing was published yet. */
export async function readSnapshot<T = unknown>(
  redis: Redis,
  prefix: string,
  ch: MarketChannel,
): Promise<ChannelMessage<T> | null> {
  const raw = await redis.get(snapshotKey(prefix, ch));
  return raw ? (JSON.parse(raw) as ChannelMessage<T>) : null;
}

/**
 * Publishes channel updates with per-channel sequence numbers. One publisher owns a channel (a Redis
 * lease makes sure of it), so an in-memory counter is the sequence. A publisher's counters start
 * above those of any publisher before it (at its start time in ms × 1000), so after a restart or a
 * takeover by a standby worker clients see a jump forward, a gap, and take a fresh snapshot; a
 * counter that started again at 1 would look to them like updates already applied, and be ignored.
 * That holds while a channel averages under a million updates a second over a publisher's life.
 */
export class ChannelPublisher {
  private readonly seqs = new Map<MarketChannel, number>();
  /** Where this publisher's sequences start; the safe-integer limit is reached only in year 2255. */
  private readonly seqBase = Date.now() * 1000;
  private pipeline: ReturnType<Redis["pipeline"]> | null = null;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    /** Snapshot keys expire so a stopped feed does not leave stale prices forever. */
    private readonly snapshotTtlSeconds = 24 * 3600,
  ) {}

  /**
   * Queues one update of `ch` (and the channel's new full state, when it differs from the update);
   * `flush` sends everything queued in one round trip.
   */
  publish<T>(
    ch: MarketChannel,
    data: T,
    fullState: unknown = data,
    options: { ts?: number; route?: string } = {},
  ): ChannelMessage<T> {
    // `route` is the Redis channel when it differs from the client's name for it (`user` → `user:<id>`).
    const route = options.route ?? ch;
    const ts = options.ts ?? Date.now();
    const seq = (this.seqs.get(route) ?? this.seqBase) + 1;
    this.seqs.set(route, seq);
    const message: ChannelMessage<T> = { ch, seq, ts, data };
    this.pipeline ??= this.redis.pipeline();
    this.pipeline.set(
      snapshotKey(this.prefix, route),
      JSON.stringify({ ch, seq, ts, data: fullState }),
      "EX",
      this.snapshotTtlSeconds,
    );
    this.pipeline.publish(pubsubChannel(this.prefix, route), JSON.stringify(message));
    return message;
  }

  async flush(): Promise<void> {
    const pipeline = this.pipeline;
    this.pipeline = null;
    // A pipeline reports failed commands in its results, not by rejecting: surface them.
    const failed = (await pipeline?.exec())?.find(([error]) => error);
    if (failed) {
      throw failed[0];
    }
  }
}

/** The latest ticker of every instrument, from the `tickers` snapshot, by symbol. */
export async function readTickers(redis: Redis, prefix: string): Promise<Map<string, Ticker>> {
  const snapshot = await readSnapshot<Ticker[]>(redis, prefix, "tickers");
  return new Map((snapshot?.data ?? []).map((t) => [t.s, t]));
}
