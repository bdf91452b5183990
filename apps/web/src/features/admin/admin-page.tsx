import { ReloadOutlined } from "@ant-design/icons";
import { Button, Empty, Flex, Result, Typography } from "antd";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { refusalText } from "./admin-query-client.ts";

/** A page of the back office: its title, tools on the right, then the content. */
export function AdminPage({
  title,
  extra,
  children,
}: {
  title: ReactNode;
  extra?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Flex vertical gap={16}>
      <Flex align="center" justify="space-between" gap={12} wrap>
        <Typography.Title level={3} style={{ margin: 0 }}>
          {title}
        </Typography.Title>
        {extra && (
          <Flex gap={8} wrap align="center">
            {extra}
          </Flex>
        )}
      </Flex>
      {children}
    </Flex>
  );
}

export function RefreshButton({ onClick, loading }: { onClick: () => void; loading: boolean }) {
  const { t } = useTranslation();
  return (
    <Button icon={<ReloadOutlined />} onClick={onClick} loading={loading} data-testid="admin-refresh">
      {t("admin.refresh")}
    </Button>
  );
}

/** The error of a query as a page state: the server's own refusal text, with a retry. */
export function QueryError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <Result
      status="warning"
      title={t("common.loadFailed")}
      subTitle={refusalText(error)}
      extra={<Button onClick={onRetry}>{t("common.retry")}</Button>}
    />
  );
}

export function EmptyText({ text }: { text?: string }) {
  const { t } = useTranslation();
  return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={text ?? t("common.empty")} />;
}
