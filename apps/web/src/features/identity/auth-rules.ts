import { isValidPhone, zPhoneDigits } from "@northstar/shared/contracts/common";
import { isErrorCode } from "@northstar/shared/errors";
import type { FormInstance, FormRule } from "antd";
import type { TFunction } from "i18next";
import { ApiError } from "../../lib/client-rules.ts";
import type { AccountType } from "./account-type.ts";
import { callingCodeOf } from "./country-list.ts";

/** Phone digits as the server parses them, and a number the phone library accepts for the chosen region. */
export function phoneRule(t: TFunction): FormRule {
  return (form) => ({
    validator: async (_, value: string | undefined) => {
      const digits = zPhoneDigits.safeParse(value ?? "");
      if (!digits.success) {
        const code = digits.error.issues[0]?.message;
        throw new Error(t(`errors.${isErrorCode(code) ? code : "PHONE_FORMAT"}`));
      }
      const area = callingCodeOf(form.getFieldValue("region"));
      if (!area || !isValidPhone(area, digits.data)) {
        throw new Error(t("errors.PHONE_FORMAT"));
      }
    },
  });
}

/**
 * Puts a server refusal that names a field on that form field (the toast was already shown by the
 * client rules). `account` and `area_code` map to the email or phone field of the active tab.
 */
export function showServerError(form: FormInstance, error: unknown, type?: AccountType): void {
  if (!(error instanceof ApiError) || !error.field || !error.message) {
    return;
  }
  let name = error.field;
  if (name === "account" || name === "area_code") {
    if (!type) {
      return;
    }
    name = type === "email" ? "email" : "phone";
  }
  form.setFields([{ name, errors: [error.message] }]);
}

/**
 * Where to go after logging in: the `redirect` parameter when it is a path on this site, never an
 * absolute or protocol-relative URL, and never back to the login or register page.
 */
export function safeRedirect(raw: string | null): string {
  if (!raw?.startsWith("/") || raw.startsWith("//") || raw.startsWith("/\\")) {
    return "/";
  }
  try {
    const url = new URL(raw, window.location.origin);
    if (url.origin !== window.location.origin || url.pathname === "/login" || url.pathname === "/register") {
      return "/";
    }
    return url.pathname + url.search + url.hash;
  } catch {
    return "/";
  }
}

// ---------------------------------------------------------------- shared form pieces
