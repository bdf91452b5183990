import type { TRecordedTick } from "@northstar/shared/contracts/markets";

const COLUMNS = [
  "id",
  "symbol",
  "price",
  "time",
  "source",
  "source_symbol",
  "source_time",
  "source_id",
  "received_at",
] as const satisfies readonly (keyof TRecordedTick)[];

/** One CSV field: quoted when it holds a comma, a quote or a line break (RFC 4180), empty for null. */
function field(value: string | number | null): string {
  const text = value === null ? "" : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * The recorded ticks as CSV, a header line first: prices exactly as recorded (decimal strings, never
 * rounded), times as ISO instants in UTC, a tick without provenance with empty source fields.
 */
export function ticksCsv(ticks: TRecordedTick[]): string {
  const lines = [COLUMNS.join(",")];
  for (const tick of ticks) {
    lines.push(COLUMNS.map((c) => field(tick[c])).join(","));
  }
  return `${lines.join("\r\n")}\r\n`;
}
