import { Typography, theme } from "antd";
import { groupDigits } from "./amount-text.ts";
import "./funding.css";

/** An amount: tabular digits, never wrapped, with its currency in the secondary colour. */
export function Amount({
  value,
  currency,
  strong,
  testId,
}: {
  value: string;
  currency?: string;
  strong?: boolean;
  testId?: string;
}) {
  const { token } = theme.useToken();
  return (
    <span className="ns-num" data-testid={testId}>
      <Typography.Text strong={strong}>{groupDigits(value)}</Typography.Text>
      {currency && (
        <span style={{ color: token.colorTextSecondary, marginInlineStart: 4, fontSize: "0.9em" }}>
          {currency}
        </span>
      )}
    </span>
  );
}
