import { LeftOutlined, RightOutlined } from "@ant-design/icons";
import { Button, Flex, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { PAGE_SIZE } from "./funding-types.ts";

/**
 * Previous / next for lists the server pages without a total: a full page means there may be more.
 */
export function Pager({
  page,
  count,
  onPage,
  disabled,
}: {
  page: number;
  count: number;
  onPage: (page: number) => void;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  if (page === 1 && count < PAGE_SIZE) {
    return null;
  }
  return (
    <Flex justify="center" align="center" gap={12} style={{ marginTop: 16 }}>
      <Button
        icon={<LeftOutlined />}
        disabled={disabled || page <= 1}
        onClick={() => onPage(page - 1)}
        aria-label={t("funding.common.previous")}
        data-testid="records-prev"
      />
      <Typography.Text className="ns-num">{t("funding.common.page", { page })}</Typography.Text>
      <Button
        icon={<RightOutlined />}
        disabled={disabled || count < PAGE_SIZE}
        onClick={() => onPage(page + 1)}
        aria-label={t("funding.common.next")}
        data-testid="records-next"
      />
    </Flex>
  );
}

/** The page number of a records list, kept in the URL so Back returns to it. */
export function pageFromSearch(search: URLSearchParams): number {
  return Math.max(1, Number.parseInt(search.get("page") ?? "1", 10) || 1);
}
