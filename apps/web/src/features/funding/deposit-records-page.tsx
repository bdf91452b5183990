import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Typography, theme } from "antd";
import { useTranslation } from "react-i18next";
import { useTRPC } from "../../lib/trpc.ts";
import { shorten } from "./amount-text.ts";
import { type DepositRecord, PAGE_SIZE } from "./funding-types.ts";
import { KeyValue } from "./key-value.tsx";
import { RecordRow, RecordsPage } from "./records-page.tsx";

function useDeposits(page: number) {
  const trpc = useTRPC();
  return useQuery(
    trpc.deposit.getMany.queryOptions({ page, page_size: PAGE_SIZE }, { placeholderData: keepPreviousData }),
  );
}

/** /rechargeRecord and /cbjl: the user's deposits, newest first, with their review state. */
export function DepositRecordsPage() {
  const { t } = useTranslation();
  return (
    <RecordsPage
      title={t("nav.depositRecord")}
      action={{ label: t("nav.deposit"), to: "/authenticationrj" }}
      emptyText={t("funding.records.emptyDeposits")}
      listTestId="deposit-records-list"
      useRecords={useDeposits}
      renderRow={(row) => <DepositRow key={row.id} row={row} />}
    />
  );
}

function DepositRow({ row }: { row: DepositRecord }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  return (
    <RecordRow record={row} route={row.chain} rejectReason={row.rejectReason}>
      {row.confirmationsRequired !== null && row.status === "pending" && (
        <KeyValue label={t("funding.records.confirmations")}>
          <Typography.Text data-testid="record-confirmations">
            {t("funding.records.confirming", {
              n: Math.min(row.confirmations ?? 0, row.confirmationsRequired),
              total: row.confirmationsRequired,
            })}
          </Typography.Text>
        </KeyValue>
      )}
      {row.confirmationsRequired !== null && row.status === "failed" && (
        <Typography.Text type="danger" data-testid="record-below-minimum">
          {t("funding.records.belowMinimum")}
        </Typography.Text>
      )}
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
    </RecordRow>
  );
}
