import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import type { DbOrTx } from "../db/client.ts";
import { marketFeedState } from "./markets.table.ts";

const ROW = "main";

/** The feeds whose prices are live market prices; any other is a sandbox's. */
export const LIVE_FEED_KINDS: readonly string[] = ["ccxt", "yahoo", "live"];

/**
 * The simulator's seed of this deployment: drawn once from a secure random source (32 bytes, hex)
 * and stored, so every later start, and a standby taking the feed over, continues with the same one.
 * Two workers starting at once agree on one (the first insert wins).
 */
export async function deploymentSimulatorSeed(db: DbOrTx): Promise<string> {
  const drawn = randomBytes(32).toString("hex");
  const [row] = await db
    .insert(marketFeedState)
    .values({ id: ROW, simulatorSeed: drawn })
    .onConflictDoUpdate({
      target: marketFeedState.id,
      set: { simulatorSeed: sql`coalesce(${marketFeedState.simulatorSeed}, excluded.simulator_seed)` },
    })
    .returning({ seed: marketFeedState.simulatorSeed });
  if (!row?.seed) {
    throw new Error("market feed: no simulator seed stored");
  }
  return row.seed;
}

let statusGeneration = 0;
/**
 * Forgets the markets' price statuses this process keeps (see assertMarketTakesOrders): the running
 * feed or a source's health changed here.
 */
export function priceStatusChanged(): void {
  statusGeneration++;
}
/** Moves on each `priceStatusChanged`: a kept status of an older generation is not used. */
export const priceStatusGeneration = (): number => statusGeneration;

/** Records the feed the worker has just started, for the platform to tell its users. */
export async function recordRunningFeed(db: DbOrTx, kind: string, sandbox: boolean, at = new Date()) {
  await db
    .insert(marketFeedState)
    .values({ id: ROW, kind, sandbox, startedAt: at, updatedAt: at })
    .onConflictDoUpdate({
      target: marketFeedState.id,
      set: { kind, sandbox, startedAt: at, updatedAt: at },
    });
  priceStatusChanged();
}

export interface RunningFeed {
  /** The feed the worker last started (null before its first start). */
  kind: string | null;
  /** True unless the feed is a live market's: every page then says "simulated prices". */
  simulated: boolean;
}

/**
 * Which feed serves this platform's prices. Before a feed has ever started the platform has no live
 * prices, so it counts as simulated until it says otherwise.
 */
export async function runningFeed(db: DbOrTx): Promise<RunningFeed> {
  const [row] = await db
    .select({ kind: marketFeedState.kind })
    .from(marketFeedState)
    .where(eq(marketFeedState.id, ROW));
  const kind = row?.kind ?? null;
  return { kind, simulated: kind === null || !LIVE_FEED_KINDS.includes(kind) };
}
