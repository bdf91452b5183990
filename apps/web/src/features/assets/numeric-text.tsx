import { Typography } from "antd";
import type { CSSProperties, ReactNode } from "react";
import { NUMERIC_STYLE } from "./assets-format.ts";

/** An amount in tabular figures, optionally coloured (credits and debits). */
export function Num({
  children,
  color,
  strong,
  style,
  testId,
}: {
  children: ReactNode;
  color?: string;
  strong?: boolean;
  style?: CSSProperties;
  testId?: string;
}) {
  return (
    <Typography.Text strong={strong} style={{ ...NUMERIC_STYLE, color, ...style }} data-testid={testId}>
      {children}
    </Typography.Text>
  );
}
