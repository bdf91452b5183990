import { getCountries } from "libphonenumber-js";
// Phones receive codes by SMS, so a phone must be a valid mobile number. The default ("min")
// metadata checks only lengths and accepts, for example, 12-digit Chinese mobiles.
import { isValidPhoneNumber } from "libphonenumber-js/mobile";
import { z } from "zod";
import type { ErrorCode } from "../errors.ts";

// Apart from common.ts because the phone library's data is over 200 KB: a page that validates no
// phone or country (the trade page) leaves it out of its download. common.ts re-exports these.

/** ISO 3166-1 alpha-2 codes of the countries the phone library knows; names come from Intl.DisplayNames. */
export const COUNTRY_CODES: readonly string[] = getCountries();

/** A phone number is valid when the phone library accepts it as a mobile number for its calling code. */
export function isValidPhone(areaCode: string, phone: string): boolean {
  try {
    return isValidPhoneNumber(`+${areaCode}${phone}`);
  } catch {
    return false;
  }
}

const nationalityRequired = { message: "NATIONALITY_REQUIRED" satisfies ErrorCode };

export const zNationality = z
  .string(nationalityRequired)
  .trim()
  .toUpperCase()
  .refine((v) => COUNTRY_CODES.includes(v), nationalityRequired);
