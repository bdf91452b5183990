import { PlusOutlined } from "@ant-design/icons";
import type { UseQueryResult } from "@tanstack/react-query";
import { Button, Flex, Tag, Typography, theme } from "antd";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { useAppNavigate } from "../../lib/navigation.tsx";
import { Page } from "../common/page.tsx";
import { EmptyState, ErrorState, LoadingState } from "../common/page-states.tsx";
import { Amount } from "./amount.tsx";
import { KeyValue } from "./key-value.tsx";
import { Pager, pageFromSearch } from "./records-pager.tsx";
import { StatusTag } from "./status-tag.tsx";
import { useFormatDateTime } from "./use-format-date-time.ts";
import "./funding.css";

/**
 * A paged list of the user's own money records (deposits, withdrawals), newest first, with a button
 * to make a new one. The page number lives in the URL so Back returns to it.
 */
export function RecordsPage<Row extends { id: number }>({
  title,
  action,
  emptyText,
  listTestId,
  useRecords,
  renderRow,
}: {
  title: string;
  action: { label: string; to: string };
  emptyText: string;
  listTestId: string;
  /** The records of one page; called as a hook, so it must be the same function on every render. */
  useRecords: (page: number) => UseQueryResult<Row[], unknown>;
  renderRow: (row: Row) => ReactNode;
}) {
  const go = useAppNavigate();
  const [params, setParams] = useSearchParams();
  const page = pageFromSearch(params);
  const records = useRecords(page);

  const show = (next: number) => {
    setParams(next > 1 ? { page: String(next) } : {}, { replace: true });
    window.scrollTo(0, 0);
  };

  return (
    <Page
      title={title}
      width={760}
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => go(action.to)}>
          {action.label}
        </Button>
      }
    >
      {records.isPending ? (
        <LoadingState rows={6} />
      ) : records.isError ? (
        <ErrorState onRetry={() => void records.refetch()} />
      ) : records.data.length === 0 && page === 1 ? (
        <EmptyState>{emptyText}</EmptyState>
      ) : (
        <>
          <div data-testid={listTestId}>{records.data.map((row) => renderRow(row))}</div>
          {records.data.length === 0 && <EmptyState />}
          <Pager page={page} count={records.data.length} onPage={show} disabled={records.isFetching} />
        </>
      )}
    </Page>
  );
}

/** One record: currency, route and date on the left, amount and review state on the right, details under. */
export function RecordRow({
  record,
  route,
  rejectReason,
  children,
  actions,
}: {
  record: { currency: string; amount: string; status: string; createdAt: string | Date };
  /** The chain, or the method when there is no chain. */
  route: ReactNode;
  rejectReason: string | null;
  children: ReactNode;
  /** What the user can still do with the record, under everything else. */
  actions?: ReactNode;
}) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const formatDateTime = useFormatDateTime();
  return (
    <Flex vertical gap={8} className="ns-record" style={{ paddingBlock: 14 }} data-testid="record-row">
      <Flex justify="space-between" align="flex-start" gap={12}>
        <Flex vertical gap={2} style={{ minWidth: 0 }}>
          <Flex align="center" gap={6} wrap>
            <Typography.Text strong>{record.currency}</Typography.Text>
            <Tag style={{ marginInlineEnd: 0 }}>{route}</Tag>
          </Flex>
          <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
            {formatDateTime(record.createdAt)}
          </Typography.Text>
        </Flex>
        <Flex vertical align="flex-end" gap={4} style={{ flex: "none" }}>
          <Amount value={record.amount} currency={record.currency} strong testId="record-amount" />
          <StatusTag status={record.status} />
        </Flex>
      </Flex>
      {children}
      {rejectReason && (
        <KeyValue label={t("funding.records.rejectReason")}>
          <Typography.Text type="danger" data-testid="record-reason">
            {rejectReason}
          </Typography.Text>
        </KeyValue>
      )}
      {actions}
    </Flex>
  );
}
