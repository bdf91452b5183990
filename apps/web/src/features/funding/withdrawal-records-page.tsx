import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Button, Flex, Popconfirm, Typography, theme } from "antd";
import { useTranslation } from "react-i18next";
import { feedback } from "../../lib/feedback.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { Amount } from "./amount.tsx";
import { maskCard, shorten } from "./amount-text.ts";
import { type BankCard, PAGE_SIZE, type WithdrawalRecord } from "./funding-types.ts";
import { KeyValue } from "./key-value.tsx";
import { RecordRow, RecordsPage } from "./records-page.tsx";

function useWithdrawals(page: number) {
  const trpc = useTRPC();
  return useQuery(
    trpc.withdrawal.getMany.queryOptions(
      { page, page_size: PAGE_SIZE },
      { placeholderData: keepPreviousData },
    ),
  );
}

/**
 * /tbjl and /addcardRecord: the user's withdrawals with fee and amount received; pending ones can be
 * cancelled. One paid by the hot wallet shows its transaction hash and, on its way, its confirmations n/N.
 */
export function WithdrawalRecordsPage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  // Bank withdrawals carry the card's id; the card list names it (deleted cards show as a card).
  const cards = useQuery(trpc.bankCard.getMany.queryOptions());
  return (
    <RecordsPage
      title={t("nav.withdrawRecord")}
      action={{ label: t("nav.withdraw"), to: "/authenticationcj" }}
      emptyText={t("funding.records.emptyWithdrawals")}
      listTestId="withdrawal-records-list"
      useRecords={useWithdrawals}
      renderRow={(row) => <WithdrawalRow key={row.id} row={row} cards={cards.data ?? []} />}
    />
  );
}

function WithdrawalRow({ row, cards }: { row: WithdrawalRecord; cards: BankCard[] }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const card = row.bankCardId ? cards.find((c) => c.id === row.bankCardId) : undefined;
  return (
    <RecordRow
      record={row}
      route={row.method === "bank" ? t("funding.withdraw.methodBank") : (row.chain ?? "")}
      rejectReason={row.rejectReason}
      actions={row.status === "pending" && <CancelWithdrawal id={row.id} />}
    >
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
      {row.txHash && (
        <KeyValue label={t("funding.records.txHash")}>
          <Typography.Text
            copyable={{ text: row.txHash, tooltips: [t("common.copy"), t("common.copied")] }}
            title={row.txHash}
            style={{ fontFamily: token.fontFamilyCode }}
            data-testid="record-tx-hash"
          >
            {shorten(row.txHash)}
          </Typography.Text>
        </KeyValue>
      )}
      {row.confirmationsRequired !== null && (row.status === "broadcast" || row.status === "confirming") && (
        <KeyValue label={t("funding.records.confirmations")}>
          <Typography.Text data-testid="record-confirmations">
            {row.confirmations ?? 0}/{row.confirmationsRequired}
          </Typography.Text>
        </KeyValue>
      )}
    </RecordRow>
  );
}

/** A pending withdrawal can be withdrawn by its owner until an operator reviews it. */
function CancelWithdrawal({ id }: { id: number }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const cancel = useMutation(trpc.withdrawal.cancel.mutationOptions());

  // The refusal (e.g. already reviewed) is shown by the client rules; the list is read again either way.
  const doCancel = () =>
    cancel
      .mutateAsync({ id })
      .then(() => feedback.success(t("funding.records.cancelled")))
      .catch(() => undefined)
      .finally(() => {
        void queryClient.invalidateQueries({ queryKey: trpc.withdrawal.pathKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.asset.pathKey() });
      });

  return (
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
  );
}
