import { MoneyDecimal } from "@northstar/shared/money";
import { and, eq, sql } from "drizzle-orm";
import type { DbOrTx } from "../db/client.ts";
import { getPolicy } from "../policy/index.ts";
import { deposits, walletTransfers } from "./funding.table.ts";

/**
 * The withdrawal turnover requirement (SPEC section 9: "90% of total consumption required first"):
 * the USDT value a user has traded or converted must reach `funding.withdraw.turnoverRatio` of the
 * USDT value of their confirmed deposits. Conversions count now; trading modules add their volume.
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
  const required = new MoneyDecimal(dep?.total ?? "0").times(ratio).toDecimalPlaces(2, MoneyDecimal.ROUND_UP);
  const achieved = new MoneyDecimal(done?.total ?? "0").toDecimalPlaces(2, MoneyDecimal.ROUND_DOWN);
  return {
    ratio,
    required: required.toFixed(2),
    done: achieved.toFixed(2),
    met: achieved.greaterThanOrEqualTo(required),
  };
}
