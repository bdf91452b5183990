import { Tag } from "antd";
import { useTranslation } from "react-i18next";

/** Tag colours from antd's status presets, so they follow the light and dark themes. */
const STATUS_COLOR: Record<string, string> = {
  pending: "processing",
  success: "success",
  failed: "error",
  cancelled: "default",
  queued: "processing",
  awaiting_release: "warning",
  broadcast: "processing",
  confirming: "processing",
};

export function StatusTag({ status }: { status: string }) {
  const { t } = useTranslation();
  return (
    <Tag
      color={STATUS_COLOR[status] ?? "default"}
      variant="filled"
      style={{ marginInlineEnd: 0 }}
      data-testid="record-status"
      data-status={status}
    >
      {t(`funding.status.${status}`, { defaultValue: status })}
    </Tag>
  );
}
