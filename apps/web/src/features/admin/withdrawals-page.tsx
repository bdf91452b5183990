import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { TableColumnsType } from "antd";
import { Flex, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { feedback } from "../../lib/feedback.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { Amount, trimAmount } from "./admin-amount.tsx";
import { AdminPage, RefreshButton } from "./admin-page.tsx";
import type { WithdrawalRow } from "./admin-types.ts";
import { Code } from "./code-text.tsx";
import { ConfirmActionDialog } from "./confirm-action-dialog.tsx";
import { DateTime } from "./date-time.tsx";
import { QueueTable } from "./queue-table.tsx";
import { ReviewButtons, ReviewState } from "./review-controls.tsx";
import { StatusFilter, useStatusFilter } from "./status-filter.tsx";

const STATUSES = ["pending", "success", "failed", "cancelled"] as const;

/**
 * The withdrawal queue. The amount is held from the user's balance when they apply; approving
 * settles the hold (the user receives the amount less the fee) and rejecting releases it back to
 * their available balance. Both are ledger entries and audited.
 */
export function WithdrawalsPage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [status, setStatus] = useStatusFilter(STATUSES);
  const list = useQuery(
    trpc.admin.withdrawals.queryOptions(status === "all" ? {} : { status }, {
      refetchInterval: status === "pending" ? 30_000 : false,
    }),
  );
  const approve = useMutation(trpc.admin.approveWithdrawal.mutationOptions({ meta: { inline: true } }));
  const reject = useMutation(trpc.admin.rejectWithdrawal.mutationOptions({ meta: { inline: true } }));
  const [action, setAction] = useState<{ kind: "approve" | "reject"; row: WithdrawalRow } | null>(null);

  const run = async (work: () => Promise<unknown>) => {
    try {
      await work();
    } finally {
      void queryClient.invalidateQueries();
    }
  };

  const columns: TableColumnsType<WithdrawalRow> = [
    { title: t("fields.id"), dataIndex: "id", width: 56, fixed: "left" },
    { title: t("admin.columns.user"), dataIndex: "userId", width: 72 },
    {
      title: t("fields.currency"),
      dataIndex: "currency",
      width: 80,
      render: (value: string) => <Typography.Text strong>{value}</Typography.Text>,
    },
    {
      title: t("fields.amount"),
      dataIndex: "amount",
      width: 100,
      align: "right",
      render: (value: string) => <Amount value={value} />,
    },
    {
      title: t("admin.columns.fee"),
      dataIndex: "fee",
      width: 80,
      align: "right",
      render: (value: string) => <Amount value={value} />,
    },
    {
      title: t("admin.columns.received"),
      dataIndex: "received",
      width: 100,
      align: "right",
      render: (value: string) => <Amount value={value} />,
    },
    {
      title: t("admin.columns.destination"),
      key: "destination",
      width: 200,
      render: (_, row) => <Destination row={row} />,
    },
    {
      title: t("admin.columns.time"),
      dataIndex: "createdAt",
      width: 130,
      render: (value: string) => <DateTime value={value} stacked />,
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
            acceptLabel={t("admin.withdrawals.approve")}
            testIdPrefix={{
              accept: `admin-withdrawal-approve-${row.id}`,
              reject: `admin-withdrawal-reject-${row.id}`,
            }}
            onAccept={() => setAction({ kind: "approve", row })}
            onReject={() => setAction({ kind: "reject", row })}
          />
        ) : (
          <ReviewState row={row} />
        ),
    },
  ];

  const row = action?.row;
  const amounts = row && {
    userId: row.userId,
    amount: trimAmount(row.amount),
    fee: trimAmount(row.fee),
    received: trimAmount(row.received),
    currency: row.currency,
  };
  return (
    <AdminPage
      title={t("admin.withdrawals.title")}
      extra={
        <>
          <StatusFilter statuses={STATUSES} value={status} onChange={setStatus} />
          <RefreshButton onClick={() => void list.refetch()} loading={list.isFetching} />
        </>
      }
    >
      <QueueTable<WithdrawalRow>
        list={list}
        columns={columns}
        rowTestIdPrefix="admin-withdrawal-row-"
        emptyText={t("admin.withdrawals.empty")}
        testId="admin-withdrawals-table"
      />
      <Typography.Text type="secondary">{t("admin.table.newest")}</Typography.Text>
      <ConfirmActionDialog
        open={action !== null}
        title={
          action?.kind === "reject"
            ? t("admin.withdrawals.rejectTitle", { id: row?.id })
            : t("admin.withdrawals.approveTitle", { id: row?.id })
        }
        description={
          row &&
          amounts && (
            <Flex vertical gap={8}>
              <span>
                {action?.kind === "reject"
                  ? t("admin.withdrawals.rejectBody", amounts)
                  : t("admin.withdrawals.approveBody", amounts)}
              </span>
              <Destination row={row} full />
            </Flex>
          )
        }
        okText={action?.kind === "reject" ? t("admin.review.reject") : t("admin.withdrawals.approve")}
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
              feedback.success(t("admin.withdrawals.rejected", { id: row.id }));
            } else {
              await approve.mutateAsync({ id: row.id });
              feedback.success(t("admin.withdrawals.approved", { id: row.id }));
            }
          })
        }
      />
    </AdminPage>
  );
}

/** Where the money goes: an address on a chain (with its memo), or one of the user's bank cards. */
function Destination({ row, full = false }: { row: WithdrawalRow; full?: boolean }) {
  const { t } = useTranslation();
  if (row.method === "bank") {
    return (
      <Typography.Text>{t("admin.withdrawals.bankCard", { id: row.bankCardId ?? "—" })}</Typography.Text>
    );
  }
  return (
    <Flex vertical gap={2}>
      {full && row.address ? (
        <Typography.Text
          code
          copyable
          style={{ wordBreak: "break-all" }}
          data-testid="admin-withdrawal-address"
        >
          {row.address}
        </Typography.Text>
      ) : (
        <Code value={row.address} width={180} />
      )}
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {row.chain ?? "—"}
        {row.memo ? ` · ${t("fields.memo")}: ${row.memo}` : ""}
      </Typography.Text>
    </Flex>
  );
}
