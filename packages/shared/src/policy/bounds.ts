import { z } from "zod";
import { DECIMAL_STRING, MoneyDecimal } from "../money.ts";
import type { PolicyKey, PolicySnapshot } from "./index.ts";

/**
 * Bounds of policy values. An operator's override outside them would make a rule impossible or
 * unfair (a fee of 100% or more taking the whole amount, a minimum above the maximum, a window that
 * never opens), so it is refused before it is stored. Decimals compare as decimals, never as floats.
 */
export const zDecimal = z.string().regex(DECIMAL_STRING);

const dec = (v: string) => new MoneyDecimal(v);

/** A rate in [0, 1): fees, spreads, tolerances. At 1 the fee would be the whole amount. */
export const zRate = zDecimal.refine((v) => dec(v).lessThan(1));
/** A share in [0, 1]: the turnover ratio may ask for all of the deposits, not more. */
export const zShare = zDecimal.refine((v) => dec(v).lessThanOrEqualTo(1));
/** A positive decimal: minimums, amounts. */
export const zPositive = zDecimal.refine((v) => dec(v).greaterThan(0));
/** A currency code as the currencies table writes it. */
export const zCurrencyCode = z.string().regex(/^[A-Z0-9]{2,10}$/);
export const zChainCode = z.string().regex(/^[A-Z0-9]{2,12}$/);

export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** A time zone Intl knows (IANA), e.g. Asia/Hong_Kong. */
export const zTimeZone = z.string().max(64).refine(isTimeZone);

/** Whole hours within one day, opening before closing, in a time zone Intl knows (IANA). */
export const zDailyWindow = z
  .object({
    start: z.number().int().min(0).max(23),
    end: z.number().int().min(1).max(24),
    timeZone: z.string().refine(isTimeZone),
  })
  .refine((w) => w.start < w.end);

/** Pairs of keys where the first may not exceed the second, whichever of them changes. */
const MIN_MAX: [PolicyKey, PolicyKey][] = [
  ["funding.withdraw.minUsdt", "funding.withdraw.maxUsdt"],
  ["identity.loginPassword.minLength", "identity.loginPassword.maxLength"],
];

/**
 * The first min/max pair that `key` takes part in and that `snapshot` (the values after the change)
 * breaks, or null. Only pairs with `key` are checked, so one bad stored pair cannot block others.
 */
export function policyConflict(
  snapshot: PolicySnapshot,
  key: PolicyKey,
): { min: PolicyKey; max: PolicyKey } | null {
  for (const [min, max] of MIN_MAX) {
    if (key !== min && key !== max) {
      continue;
    }
    const low = snapshot[min];
    const high = snapshot[max];
    if (dec(String(low)).greaterThan(String(high))) {
      return { min, max };
    }
  }
  return null;
}
