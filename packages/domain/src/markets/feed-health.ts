import { eq, sql } from "drizzle-orm";
import type { DbOrTx } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { getPolicy } from "../policy/index.ts";
import { LIVE_FEED_KINDS, priceStatusChanged, priceStatusGeneration } from "./feed-state.ts";
import type { SourceHealth, SourceHealthTracker } from "./feeds/live.ts";
import { instruments, marketFeedSources, marketFeedState } from "./markets.table.ts";

/**
 * Records the live sources' health as the feed's worker sees it. A source row with `staleSince` set
 * pauses the markets mapped to that source (see assertMarketTakesOrders).
 */
export async function recordSourceHealth(db: DbOrTx, states: readonly SourceHealth[], at = new Date()) {
  try {
    await writeSourceHealth(db, states, at);
  } finally {
    priceStatusChanged();
  }
}

async function writeSourceHealth(db: DbOrTx, states: readonly SourceHealth[], at: Date) {
  for (const s of states) {
    const values = {
      label: s.label ?? s.source,
      staleSince: s.staleSince === null ? null : new Date(s.staleSince),
      lastSourceTime: s.lastSourceTime === null ? null : new Date(s.lastSourceTime),
      lastError: s.lastError,
      updatedAt: at,
    };
    await db
      .insert(marketFeedSources)
      .values({ source: s.source, ...values })
      .onConflictDoUpdate({ target: marketFeedSources.source, set: values });
  }
}

/**
 * One check of the running live feed's sources against policy `feeds.staleAfterSeconds`, recorded for
 * the API (which refuses new orders on a paused source's markets). The worker calls it every second.
 */
export async function checkSourceHealth(
  db: DbOrTx,
  tracker: Pick<SourceHealthTracker, "status">,
  now = Date.now(),
): Promise<SourceHealth[]> {
  const staleAfter = await getPolicy(db, "feeds.staleAfterSeconds");
  const states = tracker.status(now, staleAfter * 1000);
  await recordSourceHealth(db, states, new Date(now));
  return states;
}

/** Forgets every source's health: a newly started feed starts counting afresh (and a sandbox has none). */
export async function clearSourceHealth(db: DbOrTx) {
  await db.delete(marketFeedSources);
  priceStatusChanged();
}

/*
 * Every order and position asks whether its market takes orders: thousands a second. The answer
 * changes when the feed's worker records its sources' health (every second) or a feed starts, so it
 * is kept for one second, as the spot terms are; a change made in this process applies at once.
 */
const STATUS_TTL_MS = 1000;
const statusCache = new WeakMap<
  object,
  Map<string, { at: number; generation: number; value: Promise<MarketPriceStatus | null> }>
>();

function cachedPriceStatus(db: DbOrTx, symbol: string): Promise<MarketPriceStatus | null> {
  let entries = statusCache.get(db);
  if (!entries) {
    entries = new Map();
    statusCache.set(db, entries);
  }
  const hit = entries.get(symbol);
  const now = Date.now();
  const generation = priceStatusGeneration();
  if (hit && hit.generation === generation && now - hit.at < STATUS_TTL_MS) {
    return hit.value;
  }
  const value = marketPriceStatus(db, symbol);
  const map = entries;
  map.set(symbol, { at: now, generation, value });
  value.catch(() => map.delete(symbol));
  return value;
}

/** One source's health as screens show it. */
export interface SourceStatusView {
  source: string;
  label: string;
  /** ISO time since when it has sent no new price; null while live. */
  staleSince: string | null;
  lastSourceTime: string | null;
}

/** Every recorded source, for the market pages and the back office. */
export async function sourceStatuses(db: DbOrTx): Promise<SourceStatusView[]> {
  const rows = await db.select().from(marketFeedSources).orderBy(marketFeedSources.source);
  return rows.map((r) => ({
    source: r.source,
    label: r.label,
    staleSince: r.staleSince?.toISOString() ?? null,
    lastSourceTime: r.lastSourceTime?.toISOString() ?? null,
  }));
}

/** "2026-11-28 04:10:05 UTC": a moment as a refusal names it, in every language alike. */
export function refusalTime(at: Date): string {
  return `${at.toISOString().slice(0, 19).replace("T", " ")} UTC`;
}

/** Where a market's prices come from and whether they are paused, as its page shows it. */
export interface MarketPriceStatus {
  /** The live source it is mapped to ("ccxt", "yahoo") and its symbol there; null: none. */
  feedSource: string | null;
  sourceSymbol: string | null;
  /**
   * The feed that gives this market its prices, chart candles and volume bars now: its live source
   * while a live feed serves it, "simulator" or "replay" in a sandbox, null when nothing does (or no
   * feed has started). The page names this one, never a mapping the running feed does not use.
   */
  servedBy: string | null;
  /** While its source is stale: the source's name and since when (refusal time format). */
  paused: { source: string; since: string } | null;
  /** Real accounts may only view it: a live feed runs and gives it no price, and this is no sandbox. */
  viewOnly: boolean;
}

/** The price status of one market (null for an unknown symbol). */
export async function marketPriceStatus(db: DbOrTx, symbol: string): Promise<MarketPriceStatus | null> {
  const [row] = await db
    .select({
      feedSource: instruments.feedSource,
      sourceSymbol: instruments.sourceSymbol,
      label: marketFeedSources.label,
      staleSince: marketFeedSources.staleSince,
      kind: marketFeedState.kind,
      sandbox: marketFeedState.sandbox,
    })
    .from(instruments)
    .leftJoin(marketFeedSources, eq(marketFeedSources.source, instruments.feedSource))
    .leftJoin(marketFeedState, sql`${marketFeedState.id} = 'main'`)
    .where(eq(instruments.symbol, symbol))
    .limit(1);
  if (!row) {
    return null;
  }
  const live = row.kind !== null && LIVE_FEED_KINDS.includes(row.kind);
  const served = row.kind === "live" ? row.feedSource !== null : row.feedSource === row.kind;
  const servedBy =
    row.kind === null
      ? null
      : served
        ? row.kind === "live"
          ? row.feedSource
          : row.kind
        : live
          ? null
          : row.kind;
  return {
    feedSource: row.feedSource,
    sourceSymbol: row.sourceSymbol,
    servedBy,
    paused: row.staleSince
      ? { source: row.label ?? row.feedSource ?? "", since: refusalTime(row.staleSince) }
      : null,
    viewOnly: live && !row.sandbox && !served,
  };
}

/**
 * Whether a market takes new orders and positions on its prices:
 * - MARKET_PRICES_PAUSED while the live source it is mapped to is stale ("prices paused: <source>
 *   stale since <time>"), for every account;
 * - MARKET_VIEW_ONLY for a real account when a live feed runs and serves the market no price (it has no
 *   live source, or one the running feed does not use), unless the platform is a declared sandbox.
 * Demo accounts trade a view-only market (their money is not real); nothing is paused or view-only
 * while a sandbox's simulator or replay runs.
 */
export async function assertMarketTakesOrders(
  db: DbOrTx,
  symbol: string,
  holder: { kind: string },
): Promise<void> {
  const status = await cachedPriceStatus(db, symbol);
  if (status?.paused) {
    throw new AppError("MARKET_PRICES_PAUSED", status.paused);
  }
  if (status?.viewOnly && holder.kind !== "demo") {
    throw new AppError("MARKET_VIEW_ONLY", { symbol });
  }
}
