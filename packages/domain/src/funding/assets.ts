import { type TWalletType, WALLET_TYPES } from "@northstar/shared/contracts/funding";
import { MoneyDecimal } from "@northstar/shared/money";
import { listCurrencies } from "../currencies/index.ts";
import type { DbOrTx } from "../db/client.ts";
import type { User } from "../identity/index.ts";
import { bookOf, getUserBalances } from "../ledger/index.ts";
import type { PriceProvider } from "../markets/index.ts";

// The currency list belongs to the currencies module; the funding API has always offered it.
export { listCurrencies };

export interface AssetRow {
  wallet: TWalletType;
  currency: string;
  name: string;
  displayDecimals: number;
  available: string;
  frozen: string;
  /** (available + frozen) in USDT at the latest price; null when the currency has no price. */
  valueUsdt: string | null;
}

/**
 * The asset screens: for each account type a row per enabled currency with available, frozen and
 * converted value, plus totals in USDT. Zero rows are included so every currency can be deposited.
 */
export async function getAssets(db: DbOrTx, prices: PriceProvider, user: User) {
  const [list, balances] = await Promise.all([
    listCurrencies(db),
    getUserBalances(db, user.id, bookOf(user)),
  ]);
  const byKey = new Map(balances.map((b) => [`${b.wallet}|${b.currency}`, b]));
  const rows: AssetRow[] = [];
  const totals: Record<string, MoneyDecimal> = {};
  for (const wallet of WALLET_TYPES) {
    totals[wallet] = new MoneyDecimal(0);
    for (const c of list) {
      const b = byKey.get(`${wallet}|${c.code}`);
      const available = new MoneyDecimal(b?.available ?? "0");
      const frozen = new MoneyDecimal(b?.held ?? "0");
      const price = await prices.priceInUsdt(c.code);
      const value = price === null ? null : available.plus(frozen).times(price);
      if (value) {
        totals[wallet] = (totals[wallet] ?? new MoneyDecimal(0)).plus(value);
      }
      rows.push({
        wallet,
        currency: c.code,
        name: c.name,
        displayDecimals: c.displayDecimals,
        available: available.toFixed(),
        frozen: frozen.toFixed(),
        valueUsdt: value?.toFixed(2) ?? null,
      });
    }
  }
  const total = Object.values(totals).reduce((a, b) => a.plus(b), new MoneyDecimal(0));
  return {
    book: bookOf(user),
    rows,
    totals: Object.fromEntries(Object.entries(totals).map(([k, v]) => [k, v.toFixed(2)])) as Record<
      TWalletType,
      string
    >,
    totalUsdt: total.toFixed(2),
  };
}
