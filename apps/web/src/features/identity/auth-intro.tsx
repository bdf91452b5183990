import { Typography } from "antd";
import type { ReactNode } from "react";

/** The short line under a page title. */
export function Intro({ children }: { children: ReactNode }) {
  return (
    <Typography.Paragraph type="secondary" style={{ marginTop: 0 }}>
      {children}
    </Typography.Paragraph>
  );
}
