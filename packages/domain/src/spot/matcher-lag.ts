import { asc } from "drizzle-orm";
import type { Redis } from "ioredis";
import type { DbOrTx } from "../db/client.ts";
import { commandStream } from "./commands.ts";
import { spotStreamCursors } from "./spot.table.ts";

export interface MarketCommandLag {
  symbol: string;
  /** Commands ever appended to the market's stream (Redis' `entries-added`): its rate is order intake. */
  commandsAdded: number;
  /** How long the oldest command the matcher has not committed has waited, in seconds (0 when caught up). */
  lagSeconds: number;
}

const idMs = (id: string) => Number(id.split("-")[0] ?? 0);

/**
 * Per market, what the API has appended and how far behind it the matcher's committed cursor is,
 * read from the streams and the cursors the matcher commits (so any process can answer).
 */
export async function matcherLag(
  db: DbOrTx,
  redis: Redis,
  prefix: string,
  now: number = Date.now(),
): Promise<MarketCommandLag[]> {
  const cursors = await db.select().from(spotStreamCursors).orderBy(asc(spotStreamCursors.symbol));
  if (cursors.length === 0) {
    return [];
  }
  const pipeline = redis.pipeline();
  for (const cursor of cursors) {
    pipeline.call("XINFO", "STREAM", commandStream(prefix, cursor.symbol));
    // The first command after the committed cursor: the oldest one still waiting.
    pipeline.xrange(commandStream(prefix, cursor.symbol), `(${cursor.lastId}`, "+", "COUNT", 1);
  }
  const answers = (await pipeline.exec()) ?? [];
  return cursors.map((cursor, i) => {
    const [error, info] = answers[2 * i] ?? [null, null];
    const [, waiting] = answers[2 * i + 1] ?? [null, null];
    if (error || !Array.isArray(info)) {
      return { symbol: cursor.symbol, commandsAdded: 0, lagSeconds: 0 };
    }
    const fields = new Map<string, unknown>();
    for (let k = 0; k + 1 < info.length; k += 2) {
      fields.set(String(info[k]), info[k + 1]);
    }
    const added = Number(fields.get("entries-added") ?? fields.get("length") ?? 0);
    const oldest = Array.isArray(waiting) && Array.isArray(waiting[0]) ? String(waiting[0][0]) : null;
    const behind = oldest ? Math.max(0, now - idMs(oldest)) : 0;
    return { symbol: cursor.symbol, commandsAdded: added, lagSeconds: behind / 1000 };
  });
}
