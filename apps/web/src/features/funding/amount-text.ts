import { type NumberMarks, ratePercent, withMarks } from "@northstar/shared/format";
import { money } from "@northstar/shared/money";

/** A decimal string as it is stored, without trailing zeros ("100.500000" → "100.5"). */
export function plainAmount(value: string | null | undefined): string {
  if (!value) {
    return "0";
  }
  try {
    return money(value).toFixed();
  } catch {
    return value;
  }
}

/**
 * Digits grouped with the reader's marks, the decimals kept as stored ("200000.5" → "200,000.5" in
 * English, "200.000,5" in a language that groups with dots).
 */
export function groupDigits(value: string, marks: NumberMarks): string {
  return withMarks(plainAmount(value), marks);
}

/** "0x1234ab…9f3c": enough of a hash or address to recognise it. */
export function shorten(value: string, head = 8, tail = 6): string {
  return value.length <= head + tail + 1 ? value : `${value.slice(0, head)}…${value.slice(-tail)}`;
}

/** A card or account number with all but its last four characters hidden. */
export function maskCard(value: string): string {
  const clean = value.replace(/[\s-]/g, "");
  return clean.length <= 4 ? clean : `•••• ${clean.slice(-4)}`;
}

/** A rate as a percentage, exactly ("0.05" → "5", "0.002" → "0.2"). */
export function percentOf(rate: string): string {
  return ratePercent(rate);
}
