import { isErrorCode } from "@northstar/shared/errors";
import type { FormRule } from "antd";
import type { RuleObject } from "antd/es/form";
import type { TFunction } from "i18next";
import type { z } from "zod";

/**
 * An antd form rule from a shared zod schema, so the web refuses exactly what the server refuses,
 * with the same translated message (zod issue messages are error codes).
 */
export function zodRule(
  schema: z.ZodType,
  t: TFunction,
  field: string,
  params: Record<string, string | number> = {},
  /** An optional field: left empty (null, undefined or ""), it passes, and the schema takes it as null. */
  options: { optional?: boolean } = {},
): FormRule {
  return {
    validator: async (_, value) => {
      if (options.optional && (value === null || value === undefined || value === "")) {
        return;
      }
      const result = schema.safeParse(value ?? "");
      if (result.success) {
        return;
      }
      const issue = result.error.issues[0];
      const code = issue?.message;
      const fieldName = t(`fields.${field}`);
      // A refinement may carry its message's parameters (the decimals a field allows).
      const carried =
        issue?.code === "custom" ? ((issue.params ?? {}) as Record<string, string | number>) : {};
      throw new Error(
        isErrorCode(code)
          ? t(`errors.${code}`, { field: fieldName, ...carried, ...params })
          : t("errors.FIELD_INVALID", { field: fieldName }),
      );
    },
  };
}

/** The confirmation field must equal the field it confirms (PASSWORDS_DIFFER). */
export function sameAs(
  other: string,
  t: TFunction,
): (form: { getFieldValue(name: string): unknown }) => RuleObject {
  return (form) => ({
    validator: async (_, value) => {
      if (value && value !== form.getFieldValue(other)) {
        throw new Error(t("errors.PASSWORDS_DIFFER"));
      }
    },
  });
}

/** Password length from policy: the same bounds the server enforces. */
export function passwordLengthRule(t: TFunction, min: number, max: number): FormRule {
  return {
    validator: async (_, value: string | undefined) => {
      if (!value) {
        throw new Error(t("errors.ACCOUNT_OR_PASSWORD_EMPTY"));
      }
      if (value.length < min || value.length > max) {
        throw new Error(t("errors.PASSWORD_LENGTH", { min, max }));
      }
    },
  };
}
