import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { TableColumnsType } from "antd";
import { Flex, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { feedback } from "../../lib/feedback.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { Amount, trimAmount } from "./admin-amount.tsx";
import { AdminPage, RefreshButton } from "./admin-page.tsx";
import type { DepositRow } from "./admin-types.ts";
import { Code } from "./code-text.tsx";
import { ConfirmActionDialog } from "./confirm-action-dialog.tsx";
import { DateTime } from "./date-time.tsx";
import { ProofImage } from "./proof-image.tsx";
import { QueueTable } from "./queue-table.tsx";
import { ReviewButtons, ReviewState } from "./review-controls.tsx";
import { StatusFilter, useStatusFilter } from "./status-filter.tsx";

const STATUSES = ["pending", "success", "failed"] as const;

/**
 * The deposit queue. Confirming credits the user's exchange account through a ledger entry (from
 * the deposit clearing account) and is audited; rejecting records the reason the user sees. The
 * amount is the user's claim: the operator checks it against the chain and the proof, and cannot
 * change it here.
 */
export function DepositsPage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [status, setStatus] = useStatusFilter(STATUSES);
  const list = useQuery(
    trpc.admin.deposits.queryOptions(status === "all" ? {} : { status }, {
      refetchInterval: status === "pending" ? 30_000 : false,
    }),
  );
  const confirm = useMutation(trpc.admin.confirmDeposit.mutationOptions({ meta: { inline: true } }));
  const reject = useMutation(trpc.admin.rejectDeposit.mutationOptions({ meta: { inline: true } }));
  const [action, setAction] = useState<{ kind: "confirm" | "reject"; row: DepositRow } | null>(null);

  // Whatever the answer (even "already reviewed"), the queue is fetched again.
  const run = async (work: () => Promise<unknown>) => {
    try {
      await work();
    } finally {
      void queryClient.invalidateQueries();
    }
  };

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
    {
      // Pending rows get the review buttons; reviewed ones show how they ended.
      title: status === "pending" ? t("admin.columns.actions") : t("fields.status"),
      key: "review",
      width: status === "pending" ? 120 : 190,
      fixed: "right",
      render: (_, row) =>
        row.status === "pending" ? (
          <ReviewButtons
            acceptLabel={t("admin.deposits.confirm")}
            testIdPrefix={{
              accept: `admin-deposit-confirm-${row.id}`,
              reject: `admin-deposit-reject-${row.id}`,
            }}
            onAccept={() => setAction({ kind: "confirm", row })}
            onReject={() => setAction({ kind: "reject", row })}
          />
        ) : (
          <ReviewState row={row} />
        ),
    },
  ];

  const row = action?.row;
  return (
    <AdminPage
      title={t("admin.deposits.title")}
      extra={
        <>
          <StatusFilter statuses={STATUSES} value={status} onChange={setStatus} />
          <RefreshButton onClick={() => void list.refetch()} loading={list.isFetching} />
        </>
      }
    >
      <QueueTable<DepositRow>
        list={list}
        columns={columns}
        rowTestIdPrefix="admin-deposit-row-"
        emptyText={t("admin.deposits.empty")}
        testId="admin-deposits-table"
      />
      <Typography.Text type="secondary">{t("admin.table.newest")}</Typography.Text>
      <ConfirmActionDialog
        open={action !== null}
        title={
          action?.kind === "reject"
            ? t("admin.deposits.rejectTitle", { id: row?.id })
            : t("admin.deposits.confirmTitle", { id: row?.id })
        }
        description={
          row &&
          (action?.kind === "reject"
            ? t("admin.deposits.rejectBody", {
                userId: row.userId,
                amount: trimAmount(row.amount),
                currency: row.currency,
              })
            : t("admin.deposits.confirmBody", {
                userId: row.userId,
                amount: trimAmount(row.amount),
                currency: row.currency,
                chain: row.chain,
              }))
        }
        okText={action?.kind === "reject" ? t("admin.review.reject") : t("admin.deposits.confirm")}
        danger={action?.kind === "reject"}
        reasonRequired={action?.kind === "reject"}
        onClose={() => setAction(null)}
        onSubmit={(reason) =>
          run(async () => {
            if (!row) {
              return;
            }
            if (action?.kind === "reject") {
              await reject.mutateAsync({ id: row.id, reason });
              feedback.success(t("admin.deposits.rejected", { id: row.id }));
            } else {
              await confirm.mutateAsync({ id: row.id });
              feedback.success(t("admin.deposits.confirmed", { id: row.id }));
            }
          })
        }
      />
    </AdminPage>
  );
}
