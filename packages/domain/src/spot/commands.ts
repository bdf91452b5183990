import type { Redis } from "ioredis";
import type { Book } from "../ledger/index.ts";

/**
 * The matcher's input: one Redis stream per market. The API appends `place` and `cancel` after its
 * transaction commits; the market maker appends `quote`. The database stays the truth about orders:
 * a command names an order, and the matcher reads the order's row before applying it.
 */
export type SpotCommand =
  | { t: "place"; id: number }
  | { t: "cancel"; id: number }
  /**
   * The market maker's whole ladder for one book: [price ticks, lots], best first, on the grid
   * (tick and lot size) it was drawn on; the matcher drops a ladder drawn on another grid.
   */
  | {
      t: "quote";
      book: Book;
      tick: string;
      lot: string;
      bids: [number, number][];
      asks: [number, number][];
    };

export const commandStream = (prefix: string, symbol: string) => `${prefix}:spot:cmd:${symbol}`;

/**
 * A book's best ask as the matcher last committed it (a decimal string, or empty when the side is
 * empty): a market buy by quantity takes its protection price from the book it will trade in.
 */
export const bestAskKey = (prefix: string, book: Book, symbol: string) =>
  `${prefix}:spot:best-ask:${book}:${symbol}`;

/** Appends one command to a market's stream. */
export async function sendCommand(redis: Redis, prefix: string, symbol: string, command: SpotCommand) {
  await redis.xadd(commandStream(prefix, symbol), "*", "c", JSON.stringify(command));
}

export function parseCommand(fields: string[]): SpotCommand | null {
  const at = fields.indexOf("c");
  try {
    const value = at >= 0 ? JSON.parse(fields[at + 1] ?? "") : null;
    return value && typeof value === "object" && typeof value.t === "string" ? (value as SpotCommand) : null;
  } catch {
    return null;
  }
}

/**
 * Keeps each stream to about the last minute before its committed cursor: what is older has been
 * applied (and committed, quotes included), so nothing before the cursor is read again.
 */
export async function trimStreams(redis: Redis, prefix: string, cursors: ReadonlyMap<string, string>) {
  const pipeline = redis.pipeline();
  for (const [symbol, cursor] of cursors) {
    const ms = Number(cursor.split("-")[0]);
    if (ms > 60_000) {
      pipeline.xtrim(commandStream(prefix, symbol), "MINID", "~", `${ms - 60_000}-0`);
    }
  }
  await pipeline.exec();
}
