import { LAUNCHPAD_QUANTITY_DECIMALS } from "@northstar/shared/contracts/launchpad";
import { ALWAYS_OPEN } from "@northstar/shared/markets";
import { MoneyDecimal } from "@northstar/shared/money";
import { and, asc, eq, isNull, lte } from "drizzle-orm";
import { addCurrencies } from "../currencies/index.ts";
import type { Db } from "../db/client.ts";
import { listInstruments, saveInstrument } from "../markets/index.ts";
import { launchpadOfferings } from "./launchpad.table.ts";

/** The coin's spot grid from its issue price: a price ≥ 1 in cents, smaller ones in finer ticks. */
function gridFor(issuePrice: string) {
  const price = new MoneyDecimal(issuePrice);
  if (price.gte(1)) {
    return { tickSize: "0.01", displayDecimals: 2 as const };
  }
  if (price.gte("0.01")) {
    return { tickSize: "0.0001", displayDecimals: 4 as const };
  }
  return { tickSize: "0.000001", displayDecimals: 6 as const };
}

/**
 * Lists allocated offerings whose listing day has come (UTC): the coin becomes a currency of the
 * platform and gets a spot market `<coin><pay currency>` in the catalogue, starting from the issue
 * price, which then trades on the order book. A market an operator created first is left as it is.
 * Each offering is listed once (`listed_at`); the launchpad-unlock job runs this, so a worker that
 * was down lists on its next run. Returns the symbols listed.
 */
export async function listDueOfferings(db: Db, now = new Date()): Promise<string[]> {
  const today = now.toISOString().slice(0, 10);
  const due = await db
    .select()
    .from(launchpadOfferings)
    .where(
      and(
        eq(launchpadOfferings.status, "allocated"),
        isNull(launchpadOfferings.listedAt),
        lte(launchpadOfferings.listingDay, today),
      ),
    )
    .orderBy(asc(launchpadOfferings.listingDay), asc(launchpadOfferings.id));
  const listed: string[] = [];
  for (const o of due) {
    const symbol = `${o.coin}${o.payCurrency}`;
    await addCurrencies(db, [
      { code: o.coin, name: o.name, decimals: LAUNCHPAD_QUANTITY_DECIMALS, displayDecimals: 4 },
    ]);
    const existing = await listInstruments(db, { symbols: [symbol], includeDisabled: true });
    if (existing.total === 0) {
      const grid = gridFor(o.issuePrice);
      await saveInstrument(
        db,
        {
          symbol,
          name: o.name,
          category: "crypto",
          base: o.coin,
          quote: o.payCurrency,
          tickSize: grid.tickSize,
          lotSize: "0.0001",
          minQty: "0.0001",
          contractSize: "1",
          maxLeverage: 1,
          displayDecimals: grid.displayDecimals,
          kinds: ["spot"],
          tradingHours: ALWAYS_OPEN,
          referencePrice: new MoneyDecimal(o.issuePrice).toDecimalPlaces(6).toFixed(),
          volatility: "1",
        },
        "system:launchpad",
      );
    }
    const claimed = await db
      .update(launchpadOfferings)
      .set({ listedAt: now })
      .where(and(eq(launchpadOfferings.id, o.id), isNull(launchpadOfferings.listedAt)))
      .returning({ id: launchpadOfferings.id });
    if (claimed.length > 0) {
      listed.push(symbol);
    }
  }
  return listed;
}
