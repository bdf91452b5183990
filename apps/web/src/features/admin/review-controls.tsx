import { CheckOutlined, CloseOutlined } from "@ant-design/icons";
import { Button, Flex, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { useFormatDateTime } from "./date-time.tsx";
import { StatusTag } from "./status-tag.tsx";

/** A reviewed request's state: its status tag (with the rejection reason on hover) and when it was reviewed. */
export function ReviewState({
  row,
}: {
  row: { status: string; rejectReason: string | null; reviewedAt: string | null };
}) {
  const { t } = useTranslation();
  const format = useFormatDateTime();
  return (
    <Flex vertical gap={2} align="flex-start">
      <StatusTag status={row.status} reason={row.rejectReason} />
      {row.reviewedAt && (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t("admin.review.reviewedAt")} {format.dateTime(row.reviewedAt)}
        </Typography.Text>
      )}
      {row.rejectReason && (
        <Typography.Text
          type="secondary"
          ellipsis={{ tooltip: row.rejectReason }}
          style={{ fontSize: 12, maxWidth: 200 }}
        >
          {row.rejectReason}
        </Typography.Text>
      )}
    </Flex>
  );
}

/** The two review buttons of a pending row in a queue: accept (confirm or approve) and reject. */
export function ReviewButtons({
  acceptLabel,
  testIdPrefix,
  onAccept,
  onReject,
}: {
  acceptLabel: string;
  /** e.g. "admin-deposit-confirm" and "admin-deposit-reject" come from ("admin-deposit", "confirm"). */
  testIdPrefix: { accept: string; reject: string };
  onAccept: () => void;
  onReject: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Flex vertical gap={6} align="stretch" style={{ maxWidth: 120 }}>
      <Button
        type="primary"
        size="small"
        icon={<CheckOutlined />}
        onClick={onAccept}
        data-testid={testIdPrefix.accept}
      >
        {acceptLabel}
      </Button>
      <Button
        danger
        size="small"
        icon={<CloseOutlined />}
        onClick={onReject}
        data-testid={testIdPrefix.reject}
      >
        {t("admin.review.reject")}
      </Button>
    </Flex>
  );
}
