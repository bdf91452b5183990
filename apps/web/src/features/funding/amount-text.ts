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

/** Thousands separated for reading ("200000" → "200,000"); the decimals are kept as they are. */
export function groupDigits(value: string): string {
  const [int = "", frac] = plainAmount(value).split(".");
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return frac ? `${grouped}.${frac}` : grouped;
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
  return money(rate).times(100).toFixed();
}
