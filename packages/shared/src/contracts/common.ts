import { z } from "zod";
import type { ErrorCode } from "../errors.ts";

export { COUNTRY_CODES, isValidPhone, zNationality } from "./phone.ts";

/**
 * Shared field rules. A zod issue's `message` is a domain error code (see errors.ts); the API edge
 * and the web forms translate it. Issues without one are reported as FIELD_INVALID naming the field.
 */
export const err = (code: ErrorCode) => ({ message: code });

/** Form-encoded clients send booleans as strings, and an unticked checkbox not at all. */
export const zFormBoolean = z.preprocess(
  (v) => (typeof v === "string" ? ["1", "true", "on", "yes"].includes(v.toLowerCase()) : (v ?? false)),
  z.boolean(),
);

/**
 * Whether `day` (YYYY-MM-DD) names a day of the calendar: 2026-02-30 and 2025-02-29 do not, nor does
 * year 0000, which PostgreSQL's date type does not have.
 */
export function isCalendarDay(day: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) {
    return false;
  }
  const [year, month, date] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (year < 1) {
    return false;
  }
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, date);
  return d.getUTCFullYear() === year && d.getUTCMonth() === month - 1 && d.getUTCDate() === date;
}

/** A calendar day, YYYY-MM-DD; an impossible one (2026-02-30) is FIELD_INVALID naming the field. */
export const zCalendarDay = z.string(err("FIELD_INVALID")).trim().refine(isCalendarDay, err("FIELD_INVALID"));

export const zEmail = z
  .string(err("EMAIL_FORMAT"))
  .trim()
  .toLowerCase()
  .min(1, err("EMAIL_FORMAT"))
  .max(254, err("EMAIL_FORMAT"))
  .pipe(z.email(err("EMAIL_FORMAT")));

/** Area code as digits, with or without a leading "+". */
export const zAreaCode = z
  .string(err("PHONE_FORMAT"))
  .trim()
  .transform((v) => v.replace(/^\+/, ""))
  .pipe(z.string().regex(/^[1-9]\d{0,3}$/, err("PHONE_FORMAT")));

export const zPhoneDigits = z
  .string(err("PHONE_FORMAT"))
  .trim()
  .min(1, err("PHONE_FORMAT"))
  .regex(/^\d{4,15}$/, err("PHONE_FORMAT"));

export const zCode = z
  .string(err("CODE_EMPTY"))
  .trim()
  .min(1, err("CODE_EMPTY"))
  .regex(/^\d{6}$/, err("CODE_WRONG"));

/** Length bounds come from policy and are checked by `checkPasswordLength`; here only presence. */
export const zPassword = z
  .string(err("ACCOUNT_OR_PASSWORD_EMPTY"))
  .min(1, err("ACCOUNT_OR_PASSWORD_EMPTY"))
  .max(128);

export const zTradePassword = z
  .string(err("TRADE_PASSWORD_FORMAT"))
  .regex(/^\d{6}$/, err("TRADE_PASSWORD_FORMAT"));

export const zAccountType = z.enum(["email", "phone"]);
export type TAccountType = z.infer<typeof zAccountType>;

export function checkPasswordLength(password: string, min: number, max: number): boolean {
  return password.length >= min && password.length <= max;
}
