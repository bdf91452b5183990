import { useMutation, useQuery } from "@tanstack/react-query";
import type { TableColumnsType } from "antd";
import { Flex, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { useTRPC } from "../../lib/trpc.ts";
import { Amount, trimAmount } from "./admin-amount.tsx";
import type { DepositRow } from "./admin-types.ts";
import { Code } from "./code-text.tsx";
import { DateTime } from "./date-time.tsx";
import { ProofImage } from "./proof-image.tsx";
import { ReviewQueuePage } from "./review-queue-page.tsx";

const STATUSES = ["pending", "success", "failed"] as const;

function useDeposits(status: (typeof STATUSES)[number] | "all") {
  const trpc = useTRPC();
  return useQuery(
    trpc.admin.deposits.queryOptions(status === "all" ? {} : { status }, {
      refetchInterval: status === "pending" ? 30_000 : false,
    }),
  );
}

/**
 * The deposit queue. Confirming credits the user's exchange account through a ledger entry (from
 * the deposit clearing account) and is audited; rejecting records the reason the user sees. The
 * amount is the user's claim: the operator checks it against the chain and the proof, and cannot
 * change it here.
 */
export function DepositsPage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const confirm = useMutation(trpc.admin.confirmDeposit.mutationOptions({ meta: { inline: true } }));
  const reject = useMutation(trpc.admin.rejectDeposit.mutationOptions({ meta: { inline: true } }));

  const columns: TableColumnsType<DepositRow> = [
    { title: t("fields.id"), dataIndex: "id", width: 56, fixed: "left" },
    { title: t("admin.columns.user"), dataIndex: "userId", width: 72 },
    {
      title: t("admin.columns.currencyChain"),
      key: "currency",
      width: 110,
      render: (_, row) => (
        <Flex vertical>
          <Typography.Text strong>{row.currency}</Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: 12, whiteSpace: "nowrap" }}>
            {row.chain} · {t(`admin.channel.${row.channel}`)}
          </Typography.Text>
        </Flex>
      ),
    },
    {
      title: t("fields.amount"),
      dataIndex: "amount",
      width: 110,
      align: "right",
      render: (value: string) => <Amount value={value} />,
    },
    {
      title: t("fields.txHash"),
      dataIndex: "txHash",
      width: 140,
      render: (value: string) => <Code value={value} width={120} />,
    },
    {
      title: t("admin.columns.time"),
      dataIndex: "createdAt",
      width: 130,
      render: (value: string) => <DateTime value={value} stacked />,
    },
    {
      title: t("fields.proof"),
      dataIndex: "proofUploadId",
      width: 76,
      render: (value: string | null) => <ProofImage id={value} />,
    },
    {
      title: t("fields.description"),
      dataIndex: "description",
      width: 130,
      render: (value: string | null) =>
        value ? (
          <Typography.Paragraph ellipsis={{ rows: 2, tooltip: value }} style={{ margin: 0 }}>
            {value}
          </Typography.Paragraph>
        ) : (
          <Typography.Text type="secondary">—</Typography.Text>
        ),
    },
  ];

  const claim = (row: DepositRow) => ({
    userId: row.userId,
    amount: trimAmount(row.amount),
    currency: row.currency,
    chain: row.chain,
  });
  return (
    <ReviewQueuePage<DepositRow, (typeof STATUSES)[number]>
      title={t("admin.deposits.title")}
      emptyText={t("admin.deposits.empty")}
      statuses={STATUSES}
      useList={useDeposits}
      columns={columns}
      tableTestId="admin-deposits-table"
      testIdStem="admin-deposit"
      acceptKey="confirm"
      acceptLabel={t("admin.deposits.confirm")}
      accept={{
        title: (row) => t("admin.deposits.confirmTitle", { id: row.id }),
        body: (row) => t("admin.deposits.confirmBody", claim(row)),
        done: (row) => t("admin.deposits.confirmed", { id: row.id }),
        run: (row) => confirm.mutateAsync({ id: row.id }),
      }}
      reject={{
        title: (row) => t("admin.deposits.rejectTitle", { id: row.id }),
        body: (row) => t("admin.deposits.rejectBody", claim(row)),
        done: (row) => t("admin.deposits.rejected", { id: row.id }),
        run: (row, reason) => reject.mutateAsync({ id: row.id, reason }),
      }}
    />
  );
}
