import { type TWalletType, WALLET_TYPES, zAmount } from "@northstar/shared/contracts/funding";
import { DECIMAL_STRING, MoneyDecimal, money } from "@northstar/shared/money";
import type { FormInstance, FormRule } from "antd";
import type { TFunction } from "i18next";
import type { AssetsData, CurrencyInfo } from "./assets-data.ts";

export const isWallet = (v: string | null): v is TWalletType =>
  v !== null && (WALLET_TYPES as readonly string[]).includes(v);

/** The first currency that exists among `wanted`, else the first one the platform holds. */
export function pickCurrency(currencies: CurrencyInfo[], ...wanted: (string | null | undefined)[]): string {
  for (const code of wanted) {
    const upper = code?.toUpperCase();
    if (upper && currencies.some((c) => c.code === upper)) {
      return upper;
    }
  }
  return currencies[0]?.code ?? "USDT";
}

export const available = (assets: AssetsData, wallet: string | undefined, currency: string | undefined) =>
  assets.rows.find((r) => r.wallet === wallet && r.currency === currency)?.available ?? "0";

/**
 * The amount rules beyond the shared schema's: no more decimals than the currency holds, and no more
 * than the account has (the server refuses both too; saying so here saves a round trip).
 */
export function amountLimitRules(
  t: TFunction,
  currency: CurrencyInfo | undefined,
  balance: string,
  translatedCurrency: string,
): FormRule[] {
  return [
    {
      validator: async (_, value: string | undefined) => {
        // As the server counts them: "1.50" carries one decimal, not two.
        if (
          currency &&
          value &&
          DECIMAL_STRING.test(value) &&
          money(value).decimalPlaces() > currency.decimals
        ) {
          throw new Error(
            t("assets.tooManyDecimals", { decimals: currency.decimals, currency: translatedCurrency }),
          );
        }
      },
    },
    {
      validator: async (_, value: string | undefined) => {
        if (value && zAmount.safeParse(value).success) {
          if (new MoneyDecimal(value).gt(balance)) {
            throw new Error(t("errors.INSUFFICIENT_BALANCE"));
          }
        }
      },
    },
  ];
}

/** Re-checks the named fields after a programmatic change (swap, "All"), skipping empty untouched ones. */
export function revalidate(form: FormInstance, names: string[]) {
  const touched = names.filter((n) => form.isFieldTouched(n) || form.getFieldValue(n));
  if (touched.length > 0) {
    form.validateFields(touched).catch(() => undefined);
  }
}

export function currencyOptions(currencies: CurrencyInfo[]) {
  return currencies.map((c) => ({
    value: c.code,
    label: `${c.code} · ${c.name}`,
    search: `${c.code} ${c.name}`,
  }));
}
