import { zAmount } from "@northstar/shared/contracts/funding";
import { isErrorCode } from "@northstar/shared/errors";
import { money } from "@northstar/shared/money";
import type { FormRule } from "antd";
import type { TFunction } from "i18next";
import type { z } from "zod";

/**
 * An antd rule from a shared zod schema (the server's own rule), with the refusal translated and
 * naming the field: `FIELD_REQUIRED` and `FIELD_INVALID` read "{{field}} cannot be empty".
 */
export function fieldRule(schema: z.ZodType, t: TFunction, label: string): FormRule {
  return {
    validator: async (_, value) => {
      const result = schema.safeParse(value ?? "");
      if (result.success) {
        return;
      }
      const code = result.error.issues[0]?.message;
      throw new Error(
        isErrorCode(code)
          ? t(`errors.${code}`, { field: label })
          : t("errors.FIELD_INVALID", { field: label }),
      );
    },
  };
}

/** A required text field: "{{field}} cannot be empty", as the server says it. */
export function requiredRule(t: TFunction, label: string): FormRule {
  return { required: true, whitespace: true, message: t("errors.FIELD_REQUIRED", { field: label }) };
}

/** An amount with more decimals than its currency allows: refused as the server refuses it. */
export function decimalsRule(t: TFunction, currency: string, decimals: number | undefined): FormRule {
  return {
    validator: async (_, value: string | undefined) => {
      if (decimals === undefined || !value || !/^\d+(\.\d+)?$/.test(value.trim())) {
        return;
      }
      if (money(value.trim()).decimalPlaces() > decimals) {
        throw new Error(t("funding.common.tooManyDecimals", { currency, decimals }));
      }
    },
  };
}

/** The deposit minimum the server enforces (policy funding.deposit.minimums), compared as decimals. */
export function depositMinimumRule(t: TFunction, minimum: string, currency: string): FormRule {
  return {
    validator: async (_, value: string | undefined) => {
      if (value && zAmount.safeParse(value).success && money(value).lessThan(minimum)) {
        throw new Error(t("errors.DEPOSIT_BELOW_MINIMUM", { min: minimum, currency }));
      }
    },
  };
}
