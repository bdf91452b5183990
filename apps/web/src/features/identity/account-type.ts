import { callingCodeOf } from "./country-list.ts";

/** How an account is named: by email, or by area code and phone number. Email is the default tab. */
export type AccountType = "email" | "phone";

export const ACCOUNT_TYPES: readonly AccountType[] = ["email", "phone"];

/**
 * The identity forms' field names. They match the legacy call's field names where they can, so a
 * server refusal naming a field lands on that field; `region` is the ISO country whose calling code
 * is sent as `area_code`, since several countries share one (US and CA are both +1).
 */
export interface AccountValues {
  email?: string;
  region?: string;
  phone?: string;
}

// ---------------------------------------------------------------- countries and calling codes

/** The legacy calls' account fields from the form values. */
export function accountPayload(
  type: AccountType,
  values: AccountValues,
): { type: AccountType; account: string; area_code?: string } {
  if (type === "email") {
    return { type, account: (values.email ?? "").trim() };
  }
  return { type, account: (values.phone ?? "").trim(), area_code: callingCodeOf(values.region) };
}

/** The form fields that hold the account of the given type. */
export const accountFieldNames = (type: AccountType): string[] =>
  type === "email" ? ["email"] : ["region", "phone"];
