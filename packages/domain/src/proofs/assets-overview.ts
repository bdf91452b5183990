import { LAUNCHPAD_QUANTITY_DECIMALS } from "@northstar/shared/contracts/launchpad";
import { MoneyDecimal } from "@northstar/shared/money";
import { PROOF_BUCKETS, type ProofBucket } from "@northstar/shared/proofs";
import { listCurrencies } from "../currencies/index.ts";
import type { Db } from "../db/client.ts";
import type { User } from "../identity/index.ts";
import { type Book, bookOf } from "../ledger/index.ts";
import type { PriceProvider } from "../markets/index.ts";
import { claimParts, readClaimSources } from "./liabilities.ts";

/** One currency the user owns: every bucket of the proof of liabilities, their total and its USDT value. */
export interface AssetHolding {
  currency: string;
  name: string;
  displayDecimals: number;
  /** One amount per bucket, in PROOF_BUCKETS order's keys; zero where the user has nothing there. */
  buckets: Record<ProofBucket, string>;
  /** The buckets added up: everything the user owns in this currency. */
  total: string;
  /** One unit in USDT at the platform's last price, null when the currency has none yet. */
  priceUsdt: string | null;
  /** `total` × `priceUsdt`, to the cent, rounded down; null without a price. */
  valueUsdt: string | null;
}

export interface AssetsOverview {
  book: Book;
  /** The instant the figures were read at (earn yield accrued to it). */
  asOf: string;
  /**
   * Where the USDT values come from: the last price of each currency's USDT market on this
   * platform (stablecoins the platform pegs count 1). Never an outside exchange's price.
   */
  valuation: "platform_last_price";
  /** Every currency with something in any bucket, in the platform's currency order. */
  holdings: AssetHolding[];
  /** Every holding's value added up; currencies without a price are left out and listed in `unpriced`. */
  totalUsdt: string;
  unpriced: string[];
}

/**
 * Everything one user owns, per currency and bucket: what the wallets hold free and on hold, the
 * contract margin, earn custody principal and its accrued yield, the stakes of open options,
 * launchpad holds (payments under review, allocated coins still locked), coins reserved for C2C
 * purchases, and pending withdrawals. It reads the very rows the proof of liabilities reads
 * (`readClaimSources` filtered to the user, `claimParts` for the buckets), in one repeatable-read
 * snapshot, so the assets page and the user's proof leaf agree to the last decimal.
 */
export async function getAssetsOverview(
  db: Db,
  prices: PriceProvider,
  user: User,
  now = new Date(),
): Promise<AssetsOverview> {
  const book = bookOf(user);
  const { parts, list } = await db.transaction(
    async (tx) => ({
      parts: claimParts(await readClaimSources(tx, book, now, user.id)),
      list: await listCurrencies(tx),
    }),
    { isolationLevel: "repeatable read", accessMode: "read only" },
  );
  const sums = new Map<string, Map<ProofBucket, MoneyDecimal>>();
  for (const p of parts) {
    const row = sums.get(p.currency) ?? new Map<ProofBucket, MoneyDecimal>();
    row.set(p.bucket, (row.get(p.bucket) ?? new MoneyDecimal(0)).plus(p.amount));
    sums.set(p.currency, row);
  }
  const order = new Map(list.map((c, i) => [c.code, i]));
  const held = [...sums.entries()]
    .filter(([, row]) => [...row.values()].some((v) => !v.isZero()))
    .map(([currency]) => currency)
    // The platform's order; a currency it no longer lists (a disabled one) after, by code.
    .sort((a, b) => (order.get(a) ?? list.length) - (order.get(b) ?? list.length) || a.localeCompare(b));

  const holdings: AssetHolding[] = [];
  const unpriced: string[] = [];
  let totalUsdt = new MoneyDecimal(0);
  for (const currency of held) {
    const row = sums.get(currency) as Map<ProofBucket, MoneyDecimal>;
    // A launchpad coin before its listing day is not a platform currency yet: its code names it, and
    // it is shown to the decimals its quantities are held to.
    const info = list.find((c) => c.code === currency);
    const total = [...row.values()].reduce((s, v) => s.plus(v), new MoneyDecimal(0));
    const price = await prices.priceInUsdt(currency);
    const value = price === null ? null : total.times(price).toDecimalPlaces(2, MoneyDecimal.ROUND_DOWN);
    if (value === null) {
      unpriced.push(currency);
    } else {
      totalUsdt = totalUsdt.plus(value);
    }
    holdings.push({
      currency,
      name: info?.name ?? currency,
      displayDecimals: info?.displayDecimals ?? LAUNCHPAD_QUANTITY_DECIMALS,
      buckets: Object.fromEntries(
        PROOF_BUCKETS.map((b) => [b, (row.get(b) ?? new MoneyDecimal(0)).toFixed()]),
      ) as Record<ProofBucket, string>,
      total: total.toFixed(),
      priceUsdt: price,
      valueUsdt: value?.toFixed(2) ?? null,
    });
  }
  return {
    book,
    asOf: now.toISOString(),
    valuation: "platform_last_price",
    holdings,
    totalUsdt: totalUsdt.toFixed(2),
    unpriced,
  };
}
