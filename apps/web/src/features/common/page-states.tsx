import { Button, Empty, Skeleton } from "antd";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { StatusMessage } from "./status-message.tsx";

/** Loading, error and empty states every page uses, so they look and read the same everywhere. */
export function LoadingState({ rows = 4 }: { rows?: number }) {
  return (
    <div style={{ maxWidth: 960, margin: "24px auto", padding: "0 16px" }}>
      <Skeleton active paragraph={{ rows }} data-testid="loading" />
    </div>
  );
}

export function ErrorState({ onRetry, message }: { onRetry?: () => void; message?: string }) {
  const { t } = useTranslation();
  return (
    <StatusMessage
      kind="warning"
      title={message ?? t("common.loadFailed")}
      actions={onRetry ? <Button onClick={onRetry}>{t("common.retry")}</Button> : undefined}
    />
  );
}

export function EmptyState({ children }: { children?: ReactNode }) {
  const { t } = useTranslation();
  return <Empty description={children ?? t("common.empty")} />;
}
