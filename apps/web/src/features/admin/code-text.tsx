import { Typography } from "antd";

/** A long code (hash, address) in monospace, shortened, copyable in full. */
export function Code({ value, width = 180 }: { value: string | null | undefined; width?: number }) {
  if (!value) {
    return <Typography.Text type="secondary">—</Typography.Text>;
  }
  return (
    <Typography.Text
      copyable={{ text: value }}
      ellipsis={{ tooltip: value }}
      style={{ maxWidth: width, fontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace" }}
    >
      {value}
    </Typography.Text>
  );
}
