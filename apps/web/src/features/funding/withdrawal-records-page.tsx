import { PlusOutlined } from "@ant-design/icons";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Button, Flex, Popconfirm, Tag, Typography, theme } from "antd";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { feedback } from "../../lib/feedback.ts";
import { useAppNavigate } from "../../lib/navigation.tsx";
import { useTRPC } from "../../lib/trpc.ts";
import { Page } from "../common/page.tsx";
import { EmptyState, ErrorState, LoadingState } from "../common/page-states.tsx";
import { Amount } from "./amount.tsx";
import { maskCard, shorten } from "./amount-text.ts";
import { type BankCard, PAGE_SIZE, type WithdrawalRecord } from "./funding-types.ts";
import { KeyValue } from "./key-value.tsx";
import { Pager, pageFromSearch } from "./records-pager.tsx";
import { StatusTag } from "./status-tag.tsx";
import { useFormatDateTime } from "./use-format-date-time.ts";
import "./funding.css";

/** /tbjl and /addcardRecord: the user's withdrawals with fee and amount received; pending ones can be cancelled. */
export function WithdrawalRecordsPage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const go = useAppNavigate();
  const [params, setParams] = useSearchParams();
  const page = pageFromSearch(params);
  const records = useQuery(
    trpc.withdrawal.getMany.queryOptions(
      { page, page_size: PAGE_SIZE },
      { placeholderData: keepPreviousData },
    ),
  );
  // Bank withdrawals carry the card's id; the card list names it (deleted cards show as a card).
  const cards = useQuery(trpc.bankCard.getMany.queryOptions());

  const show = (next: number) => {
    setParams(next > 1 ? { page: String(next) } : {}, { replace: true });
    window.scrollTo(0, 0);
  };

  return (
    <Page
      title={t("nav.withdrawRecord")}
      width={760}
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => go("/authenticationcj")}>
          {t("nav.withdraw")}
        </Button>
      }
    >
      {records.isPending ? (
        <LoadingState rows={6} />
      ) : records.isError ? (
        <ErrorState onRetry={() => void records.refetch()} />
      ) : records.data.length === 0 && page === 1 ? (
        <EmptyState>{t("funding.records.emptyWithdrawals")}</EmptyState>
      ) : (
        <>
          <div data-testid="withdrawal-records-list">
            {records.data.map((row) => (
              <WithdrawalRow key={row.id} row={row} cards={cards.data ?? []} />
            ))}
          </div>
          {records.data.length === 0 && <EmptyState />}
          <Pager page={page} count={records.data.length} onPage={show} disabled={records.isFetching} />
        </>
      )}
    </Page>
  );
}

function WithdrawalRow({ row, cards }: { row: WithdrawalRecord; cards: BankCard[] }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const formatDateTime = useFormatDateTime();
  const cancel = useMutation(trpc.withdrawal.cancel.mutationOptions());
  const card = row.bankCardId ? cards.find((c) => c.id === row.bankCardId) : undefined;

  // The refusal (e.g. already reviewed) is shown by the client rules; the list is read again either way.
  const doCancel = () =>
    cancel
      .mutateAsync({ id: row.id })
      .then(() => feedback.success(t("funding.records.cancelled")))
      .catch(() => undefined)
      .finally(() => {
        void queryClient.invalidateQueries({ queryKey: trpc.withdrawal.pathKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.asset.pathKey() });
      });

  return (
    <Flex vertical gap={8} className="ns-record" style={{ paddingBlock: 14 }} data-testid="record-row">
      <Flex justify="space-between" align="flex-start" gap={12}>
        <Flex vertical gap={2} style={{ minWidth: 0 }}>
          <Flex align="center" gap={6} wrap>
            <Typography.Text strong>{row.currency}</Typography.Text>
            <Tag style={{ marginInlineEnd: 0 }}>
              {row.method === "bank" ? t("funding.withdraw.methodBank") : (row.chain ?? "")}
            </Tag>
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
      <KeyValue label={t("funding.records.fee")}>
        <Amount value={row.fee} currency={row.currency} />
      </KeyValue>
      <KeyValue label={t("funding.records.received")}>
        <Amount value={row.received} currency={row.currency} />
      </KeyValue>
      <KeyValue label={t("funding.records.destination")}>
        {row.method === "crypto" && row.address ? (
          <Typography.Text
            copyable={{ text: row.address, tooltips: [t("common.copy"), t("common.copied")] }}
            title={row.address}
            style={{ fontFamily: token.fontFamilyCode }}
          >
            {shorten(row.address)}
            {row.memo ? ` · ${row.memo}` : ""}
          </Typography.Text>
        ) : (
          <Typography.Text>
            {card ? `${card.bankName} · ${maskCard(card.cardId)}` : t("funding.withdraw.methodBank")}
          </Typography.Text>
        )}
      </KeyValue>
      {row.rejectReason && (
        <KeyValue label={t("funding.records.rejectReason")}>
          <Typography.Text type="danger" data-testid="record-reason">
            {row.rejectReason}
          </Typography.Text>
        </KeyValue>
      )}
      {row.status === "pending" && (
        <Flex justify="flex-end">
          <Popconfirm
            title={t("funding.records.cancelTitle")}
            description={t("funding.records.cancelText")}
            okText={t("funding.records.cancelOk")}
            cancelText={t("common.back")}
            okButtonProps={{ danger: true, "data-testid": "record-cancel-confirm" }}
            onConfirm={doCancel}
          >
            <Button size="small" danger loading={cancel.isPending} data-testid="record-cancel">
              {t("funding.records.cancel")}
            </Button>
          </Popconfirm>
        </Flex>
      )}
    </Flex>
  );
}
