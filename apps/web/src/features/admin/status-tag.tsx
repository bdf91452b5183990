import { Tag, Tooltip } from "antd";
import { useTranslation } from "react-i18next";

export const STATUS_COLOR: Record<string, string> = {
  pending: "processing",
  success: "success",
  failed: "error",
  cancelled: "default",
  queued: "processing",
  awaiting_release: "warning",
  broadcast: "processing",
  confirming: "processing",
};

/** A review status as a tag; a rejection shows its reason on hover. */
export function StatusTag({ status, reason }: { status: string; reason?: string | null }) {
  const { t } = useTranslation();
  const tag = (
    <Tag color={STATUS_COLOR[status] ?? "default"} style={{ marginInlineEnd: 0 }}>
      {t(`admin.status.${status}`, { defaultValue: status })}
    </Tag>
  );
  return reason ? <Tooltip title={`${t("fields.reason")}: ${reason}`}>{tag}</Tooltip> : tag;
}
