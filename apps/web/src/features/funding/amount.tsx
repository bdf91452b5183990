import { Typography, theme } from "antd";
import { useMoneyFormat } from "../assets/assets-format.ts";
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
  const format = useMoneyFormat();
  return (
    <span className="ns-num" data-testid={testId}>
      <Typography.Text strong={strong}>{format.grouped(value)}</Typography.Text>
      {currency && (
        <span style={{ color: token.colorTextSecondary, marginInlineStart: 4, fontSize: "0.9em" }}>
          {currency}
        </span>
      )}
    </span>
  );
}
