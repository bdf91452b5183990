import { Tag } from "antd";
import { useTranslation } from "react-i18next";

const COLORS: Record<string, string> = {
  unverified: "default",
  under_review: "processing",
  approved: "success",
  rejected: "error",
};

/** A verification level's state: not verified, under review, approved or rejected. */
export function KycStatusTag({ status, testId }: { status: string; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Tag color={COLORS[status] ?? "default"} data-testid={testId} style={{ marginInlineEnd: 0 }}>
      {t(`kyc.status.${status}`)}
    </Tag>
  );
}
