import { money } from "@northstar/shared/money";
import { theme } from "antd";

/**
 * A decimal string as it is, trailing zeros trimmed ("100.500000" → "100.5"). Computed with
 * decimal.js: a JS number never holds money. A value that is not a decimal is shown unchanged.
 */
export function trimAmount(value: string | null | undefined): string {
  if (value === null || value === undefined || value === "") {
    return "—";
  }
  try {
    return money(value).toFixed();
  } catch {
    return value;
  }
}

export function Amount({ value, signed = false }: { value: string | null | undefined; signed?: boolean }) {
  const { token } = theme.useToken();
  const text = trimAmount(value);
  const negative = text.startsWith("-");
  const color =
    !signed || text === "—" || text === "0" ? undefined : negative ? token.colorError : token.colorSuccess;
  return (
    <span style={{ fontVariantNumeric: "tabular-nums", whiteSpace: "nowrap", color }}>
      {signed && !negative && text !== "0" && text !== "—" ? `+${text}` : text}
    </span>
  );
}
