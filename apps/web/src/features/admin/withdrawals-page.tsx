import { useMutation, useQuery } from "@tanstack/react-query";
import type { TableColumnsType } from "antd";
import { Flex, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { useTRPC } from "../../lib/trpc.ts";
import { Amount, trimAmount } from "./admin-amount.tsx";
import type { WithdrawalRow } from "./admin-types.ts";
import { Code } from "./code-text.tsx";
import { DateTime } from "./date-time.tsx";
import { ReviewQueuePage } from "./review-queue-page.tsx";

const STATUSES = [
  "pending",
  "awaiting_release",
  "queued",
  "broadcast",
  "confirming",
  "success",
  "failed",
  "cancelled",
] as const;
const WAITING = new Set<string>(["pending", "awaiting_release", "queued", "broadcast", "confirming"]);

function useWithdrawals(status: (typeof STATUSES)[number] | "all") {
  const trpc = useTRPC();
  return useQuery(
    trpc.admin.withdrawals.queryOptions(status === "all" ? {} : { status }, {
      refetchInterval: status !== "all" && WAITING.has(status) ? 30_000 : false,
    }),
  );
}

/**
 * The withdrawal queue. The amount is held from the user's balance when they apply; approving
 * settles the hold (the user receives the amount less the fee) and rejecting releases it back to
 * their available balance. Both are ledger entries and audited. A withdrawal the hot wallet pays
 * stays held after approval until the chain confirms it (sending, broadcast, confirming n/N, with
 * its transaction); one over the daily hot-wallet limit waits for an operator to release or reject it.
 */
export function WithdrawalsPage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const approve = useMutation(trpc.admin.approveWithdrawal.mutationOptions({ meta: { inline: true } }));
  const reject = useMutation(trpc.admin.rejectWithdrawal.mutationOptions({ meta: { inline: true } }));
  const release = useMutation(trpc.admin.releaseWithdrawal.mutationOptions({ meta: { inline: true } }));

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
      title: t("admin.columns.transaction"),
      key: "transaction",
      width: 170,
      render: (_, row) => <Transaction row={row} />,
    },
    {
      title: t("admin.columns.time"),
      dataIndex: "createdAt",
      width: 130,
      render: (value: string) => <DateTime value={value} stacked />,
    },
  ];

  const amounts = (row: WithdrawalRow) => ({
    userId: row.userId,
    amount: trimAmount(row.amount),
    fee: trimAmount(row.fee),
    received: trimAmount(row.received),
    currency: row.currency,
  });
  const body = (row: WithdrawalRow, text: string) => (
    <Flex vertical gap={8}>
      <span>{text}</span>
      <Destination row={row} full />
    </Flex>
  );
  return (
    <ReviewQueuePage<WithdrawalRow, (typeof STATUSES)[number]>
      title={t("admin.withdrawals.title")}
      emptyText={t("admin.withdrawals.empty")}
      statuses={STATUSES}
      useList={useWithdrawals}
      columns={columns}
      tableTestId="admin-withdrawals-table"
      testIdStem="admin-withdrawal"
      acceptKey="approve"
      acceptLabel={t("admin.withdrawals.approve")}
      accept={{
        title: (row) => t("admin.withdrawals.approveTitle", { id: row.id }),
        body: (row) => body(row, t("admin.withdrawals.approveBody", amounts(row))),
        done: (row) => t("admin.withdrawals.approved", { id: row.id }),
        run: (row) => approve.mutateAsync({ id: row.id }),
      }}
      reject={{
        title: (row) => t("admin.withdrawals.rejectTitle", { id: row.id }),
        body: (row) => body(row, t("admin.withdrawals.rejectBody", amounts(row))),
        done: (row) => t("admin.withdrawals.rejected", { id: row.id }),
        run: (row, reason) => reject.mutateAsync({ id: row.id, reason }),
      }}
      release={{
        status: "awaiting_release",
        key: "release",
        label: t("admin.withdrawals.release"),
        decision: {
          title: (row) => t("admin.withdrawals.releaseTitle", { id: row.id }),
          body: (row) => body(row, t("admin.withdrawals.releaseBody", amounts(row))),
          done: (row) => t("admin.withdrawals.released", { id: row.id }),
          run: (row) => release.mutateAsync({ id: row.id }),
        },
      }}
    />
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

/** The hot wallet's latest transaction and its confirmations (n/N), for a withdrawal paid on chain. */
function Transaction({ row }: { row: WithdrawalRow }) {
  if (!row.txHash) {
    return <Typography.Text type="secondary">—</Typography.Text>;
  }
  return (
    <Flex vertical gap={2}>
      <Code value={row.txHash} width={150} />
      {row.confirmationsRequired !== null && (
        <Typography.Text
          type="secondary"
          style={{ fontSize: 12 }}
          data-testid={`admin-withdrawal-confirmations-${row.id}`}
        >
          {row.confirmations ?? 0}/{row.confirmationsRequired}
        </Typography.Text>
      )}
    </Flex>
  );
}
