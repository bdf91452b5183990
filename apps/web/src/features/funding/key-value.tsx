import { Typography } from "antd";
import type { ReactNode } from "react";
import "./funding.css";

/** A label and a value on one line; the value (usually an amount) is right-aligned. */
export function KeyValue({ label, children }: { label: ReactNode; children: ReactNode }) {
  return (
    <div className="ns-kv">
      <Typography.Text type="secondary" className="ns-kv-label">
        {label}
      </Typography.Text>
      <div className="ns-kv-value">{children}</div>
    </div>
  );
}
