import { Tag } from "antd";
import { useTranslation } from "react-i18next";

const COLOR: Record<string, string> = {
  unmatched: "default",
  matched: "processing",
  paid: "warning",
  completed: "success",
  expired: "default",
  rejected: "error",
};

/** An order's state in the words of SPEC section 4. */
export function OrderStatusTag({ status }: { status: string }) {
  const { t } = useTranslation();
  return (
    <Tag
      color={COLOR[status]}
      variant="filled"
      style={{ marginInlineEnd: 0 }}
      data-testid="c2c-status"
      data-status={status}
    >
      {t(`c2c.status.${status}`)}
    </Tag>
  );
}
