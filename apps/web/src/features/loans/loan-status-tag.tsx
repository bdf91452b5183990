import { Tag } from "antd";
import { useTranslation } from "react-i18next";

const COLOR: Record<string, string> = {
  unreviewed: "processing",
  disbursed: "blue",
  repaying: "cyan",
  overdue: "error",
  cleared: "success",
  rejected: "warning",
  withdrawn: "default",
};

/** A loan's state in the user's language. */
export function LoanStatusTag({ status }: { status: string }) {
  const { t } = useTranslation();
  return (
    <Tag color={COLOR[status]} variant="filled" style={{ marginInlineEnd: 0 }} data-testid="loan-status">
      {t(`loans.status.${status}`)}
    </Tag>
  );
}
