import { MoneyDecimal } from "@northstar/shared/money";
import { and, eq, sql } from "drizzle-orm";
import type { DbOrTx } from "../db/client.ts";
import { getPolicy } from "../policy/index.ts";
import { deposits, walletTransfers } from "./funding.table.ts";

/** The USDT value one user has traded in a trading module, as a decimal string. */
export type TurnoverSource = (db: DbOrTx, userId: number) => Promise<string>;

const turnoverSources: TurnoverSource[] = [];

/**
 * Trading modules sit above funding, so funding does not read their tables: each registers the sum
 * of its users' traded USDT value (spot: the real-book fills, both sides), read from its own rows.
 */
export function addTurnoverSource(source: TurnoverSource): void {
  turnoverSources.push(source);
}

/**
 * The withdrawal turnover requirement (SPEC section 9: "90% of total consumption required first"):
 * the USDT value a user has traded or converted must reach `funding.withdraw.turnoverRatio` of the
 * USDT value of their confirmed deposits. Conversions count, and so do the trades that trading
 * modules register (`addTurnoverSource`: spot fills, both maker and taker sides).
 */
export async function getTurnoverProgress(db: DbOrTx, userId: number) {
  const ratio = await getPolicy(db, "funding.withdraw.turnoverRatio");
  const [dep] = await db
    .select({ total: sql<string>`coalesce(sum(${deposits.valueUsdt}), 0)::text` })
    .from(deposits)
    .where(and(eq(deposits.userId, userId), eq(deposits.status, "success")));
  const [done] = await db
    .select({ total: sql<string>`coalesce(sum(${walletTransfers.turnoverUsdt}), 0)::text` })
    .from(walletTransfers)
    .where(and(eq(walletTransfers.userId, userId), eq(walletTransfers.book, "real")));
  const traded = await Promise.all(turnoverSources.map((source) => source(db, userId)));
  const required = new MoneyDecimal(dep?.total ?? "0").times(ratio).toDecimalPlaces(2, MoneyDecimal.ROUND_UP);
  const achieved = traded
    .reduce((sum, value) => sum.plus(value), new MoneyDecimal(done?.total ?? "0"))
    .toDecimalPlaces(2, MoneyDecimal.ROUND_DOWN);
  return {
    ratio,
    required: required.toFixed(2),
    done: achieved.toFixed(2),
    met: achieved.greaterThanOrEqualTo(required),
  };
}
