import { Flex, Typography, theme } from "antd";
import type { ReactNode } from "react";

/** A small label above a value, right-aligned: the cells of an asset or record row on narrow screens. */
export function Stat({
  label,
  children,
  align = "end",
}: {
  label: ReactNode;
  children: ReactNode;
  align?: "start" | "end";
}) {
  const { token } = theme.useToken();
  return (
    <Flex vertical align={align === "end" ? "flex-end" : "flex-start"} style={{ minWidth: 0 }}>
      <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM, lineHeight: 1.4 }}>
        {label}
      </Typography.Text>
      <div style={{ maxWidth: "100%", overflowWrap: "anywhere", textAlign: align }}>{children}</div>
    </Flex>
  );
}
