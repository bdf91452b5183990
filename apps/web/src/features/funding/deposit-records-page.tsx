import { PlusOutlined } from "@ant-design/icons";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Button, Flex, Tag, Typography, theme } from "antd";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { useAppNavigate } from "../../lib/navigation.tsx";
import { useTRPC } from "../../lib/trpc.ts";
import { Page } from "../common/page.tsx";
import { EmptyState, ErrorState, LoadingState } from "../common/page-states.tsx";
import { Amount } from "./amount.tsx";
import { shorten } from "./amount-text.ts";
import { type DepositRecord, PAGE_SIZE } from "./funding-types.ts";
import { KeyValue } from "./key-value.tsx";
import { Pager, pageFromSearch } from "./records-pager.tsx";
import { StatusTag } from "./status-tag.tsx";
import { useFormatDateTime } from "./use-format-date-time.ts";
import "./funding.css";

/** /rechargeRecord and /cbjl: the user's deposits, newest first, with their review state. */
export function DepositRecordsPage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const go = useAppNavigate();
  const [params, setParams] = useSearchParams();
  const page = pageFromSearch(params);
  const records = useQuery(
    trpc.deposit.getMany.queryOptions({ page, page_size: PAGE_SIZE }, { placeholderData: keepPreviousData }),
  );

  const show = (next: number) => {
    setParams(next > 1 ? { page: String(next) } : {}, { replace: true });
    window.scrollTo(0, 0);
  };

  return (
    <Page
      title={t("nav.depositRecord")}
      width={760}
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => go("/authenticationrj")}>
          {t("nav.deposit")}
        </Button>
      }
    >
      {records.isPending ? (
        <LoadingState rows={6} />
      ) : records.isError ? (
        <ErrorState onRetry={() => void records.refetch()} />
      ) : records.data.length === 0 && page === 1 ? (
        <EmptyState>{t("funding.records.emptyDeposits")}</EmptyState>
      ) : (
        <>
          <div data-testid="deposit-records-list">
            {records.data.map((row) => (
              <DepositRow key={row.id} row={row} />
            ))}
          </div>
          {records.data.length === 0 && <EmptyState />}
          <Pager page={page} count={records.data.length} onPage={show} disabled={records.isFetching} />
        </>
      )}
    </Page>
  );
}

function DepositRow({ row }: { row: DepositRecord }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const formatDateTime = useFormatDateTime();
  return (
    <Flex vertical gap={8} className="ns-record" style={{ paddingBlock: 14 }} data-testid="record-row">
      <Flex justify="space-between" align="flex-start" gap={12}>
        <Flex vertical gap={2} style={{ minWidth: 0 }}>
          <Flex align="center" gap={6} wrap>
            <Typography.Text strong>{row.currency}</Typography.Text>
            <Tag style={{ marginInlineEnd: 0 }}>{row.chain}</Tag>
          </Flex>
          <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
            {formatDateTime(row.createdAt)}
          </Typography.Text>
        </Flex>
        <Flex vertical align="flex-end" gap={4} style={{ flex: "none" }}>
          <Amount value={row.amount} currency={row.currency} strong testId="record-amount" />
          <StatusTag status={row.status} />
        </Flex>
      </Flex>
      <KeyValue label={t("fields.txHash")}>
        <Typography.Text
          className="ns-num"
          copyable={{ text: row.txHash, tooltips: [t("common.copy"), t("common.copied")] }}
          title={row.txHash}
          style={{ fontFamily: token.fontFamilyCode }}
        >
          {shorten(row.txHash)}
        </Typography.Text>
      </KeyValue>
      {row.rejectReason && (
        <KeyValue label={t("funding.records.rejectReason")}>
          <Typography.Text type="danger" data-testid="record-reason">
            {row.rejectReason}
          </Typography.Text>
        </KeyValue>
      )}
    </Flex>
  );
}
