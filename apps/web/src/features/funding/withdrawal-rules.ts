import { zAmount } from "@northstar/shared/contracts/funding";
import { money } from "@northstar/shared/money";
import { withdrawalQuote } from "@northstar/shared/withdrawal-fee";
import type { FormRule } from "antd";
import type { TFunction } from "i18next";
import { percentOf } from "./amount-text.ts";

/** Fee and amount received, computed as the server computes them; null until the amount is usable. */
export function quote(amount: string | undefined, feeRate: string, decimals: number | undefined) {
  return amount && decimals !== undefined ? withdrawalQuote(amount, feeRate, decimals) : null;
}

/** The parts of the withdrawal terms that can stop any withdrawal today, whatever the amount. */
export interface BlockingTerms {
  windowOpen: boolean;
  window: { start: number; end: number };
  usedToday: number;
  perDay: number;
  turnover: { met: boolean; required: string; done: string; ratio: string };
}

/** Why no withdrawal can be made now, in the server's own words; empty when nothing stands in the way. */
export function withdrawalBlockers(
  terms: BlockingTerms,
  t: TFunction,
  /** groups an amount's digits for the reader's language */
  grouped: (value: string) => string,
): string[] {
  return [
    !terms.windowOpen &&
      t("errors.WITHDRAW_OUTSIDE_WINDOW", { start: terms.window.start, end: terms.window.end }),
    terms.usedToday >= terms.perDay && t("errors.WITHDRAW_DAILY_LIMIT", { count: terms.perDay }),
    !terms.turnover.met &&
      t("errors.WITHDRAW_TURNOVER_REQUIRED", {
        required: grouped(terms.turnover.required),
        done: grouped(terms.turnover.done),
        ratio: percentOf(terms.turnover.ratio),
      }),
  ].filter((b): b is string => Boolean(b));
}

/**
 * The same checks as the server, in decimals: the balance (once it is known), and for USDT the
 * per-withdrawal limits. A malformed amount is left to the field's own format rule.
 */
export function withdrawAmountRule(
  t: TFunction,
  limits: { currency: string; available: string | undefined; minUsdt: string; maxUsdt: string },
  /** groups an amount's digits for the reader's language */
  grouped: (value: string) => string,
): FormRule {
  return {
    validator: async (_, value: string | undefined) => {
      if (!value || !zAmount.safeParse(value).success) {
        return;
      }
      const v = money(value);
      if (limits.available !== undefined && v.greaterThan(limits.available)) {
        throw new Error(t("errors.INSUFFICIENT_BALANCE"));
      }
      if (limits.currency === "USDT" && v.lessThan(limits.minUsdt)) {
        throw new Error(`${t("errors.WITHDRAW_BELOW_MINIMUM")} (${grouped(limits.minUsdt)} USDT)`);
      }
      if (limits.currency === "USDT" && v.greaterThan(limits.maxUsdt)) {
        throw new Error(t("errors.WITHDRAW_ABOVE_MAXIMUM", { max: grouped(limits.maxUsdt) }));
      }
    },
  };
}

/** A Google Authenticator code: required once bound, six digits. */
export function googleCodeRule(t: TFunction): FormRule {
  return {
    validator: async (_, value: string | undefined) => {
      if (!value) {
        throw new Error(t("errors.GOOGLE_CODE_REQUIRED"));
      }
      if (!/^\d{6}$/.test(value)) {
        throw new Error(t("errors.GOOGLE_CODE_WRONG"));
      }
    },
  };
}
