import { money } from "@northstar/shared/money";
import { can } from "@northstar/shared/operators";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { TableColumnsType } from "antd";
import { Button, Flex, Tag, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { feedback } from "../../lib/feedback.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { Amount, trimAmount } from "./admin-amount.tsx";
import { useOperator } from "./admin-layout.tsx";
import { AdminPage, RefreshButton } from "./admin-page.tsx";
import type { ChainAlertRow, ChainSweepRow, WithdrawalRow } from "./admin-types.ts";
import { Code } from "./code-text.tsx";
import { ConfirmActionDialog } from "./confirm-action-dialog.tsx";
import { DateTime } from "./date-time.tsx";
import { QueueTable } from "./queue-table.tsx";

/** The lists are read again this often while the page is open. */
const REFRESH_MS = 30_000;

/** What an alert's details say of the transfer it is about (written by the chain watcher). */
function alertDetails(row: ChainAlertRow): { txHash?: string; logIndex?: number; block?: string } {
  const details = (row.details ?? {}) as Record<string, unknown>;
  return {
    ...(typeof details.txHash === "string" ? { txHash: details.txHash } : {}),
    ...(typeof details.logIndex === "number" ? { logIndex: details.logIndex } : {}),
    ...(typeof details.block === "string" ? { block: details.block } : {}),
  };
}

type Pending = { kind: "resolve"; alert: ChainAlertRow } | { kind: "release"; payout: WithdrawalRow };

/**
 * The watched chain's operator screen: the open chain alerts (a credited deposit whose block was
 * replaced: it is never credited twice, but the coins may not be at the address) with "mark looked
 * into", and the hot-wallet payouts held by the daily limit with Release (the hot wallet then sends
 * them). Both actions are audited by the server; neither moves a balance by itself. Operators with
 * the chain-custody permission also see the sweeps of deposit addresses to the hot wallet (run by
 * the operator's sweep command), newest first.
 */
export function ChainOperationsPage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const alerts = useQuery(trpc.admin.chainAlerts.queryOptions(undefined, { refetchInterval: REFRESH_MS }));
  const held = useQuery(
    trpc.admin.withdrawals.queryOptions({ status: "awaiting_release" }, { refetchInterval: REFRESH_MS }),
  );
  const mayCustody = can(useOperator().role, "chain.custody");
  const sweeps = useQuery(
    trpc.admin.chainSweeps.queryOptions(
      { page: 1, page_size: 100 },
      { refetchInterval: REFRESH_MS, enabled: mayCustody },
    ),
  );
  const resolve = useMutation(trpc.admin.resolveChainAlert.mutationOptions({ meta: { inline: true } }));
  const release = useMutation(trpc.admin.releaseWithdrawal.mutationOptions({ meta: { inline: true } }));
  const [pending, setPending] = useState<Pending | null>(null);

  const alertColumns: TableColumnsType<ChainAlertRow> = [
    { title: t("fields.id"), dataIndex: "id", width: 64 },
    {
      title: t("admin.chain.kind"),
      dataIndex: "kind",
      width: 170,
      render: (kind: ChainAlertRow["kind"]) => <Tag color="error">{t(`admin.chain.kinds.${kind}`)}</Tag>,
    },
    { title: t("fields.chain"), dataIndex: "network", width: 80 },
    {
      title: t("admin.columns.transaction"),
      key: "transaction",
      width: 220,
      render: (_, row) => {
        const d = alertDetails(row);
        return d.txHash ? (
          <Flex vertical gap={2}>
            <Code value={d.txHash} width={200} />
            {d.logIndex !== undefined && (
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {d.logIndex < 0 ? t("admin.chain.native") : t("admin.chain.log", { index: d.logIndex })}
              </Typography.Text>
            )}
          </Flex>
        ) : (
          <Typography.Text type="secondary">—</Typography.Text>
        );
      },
    },
    {
      title: t("admin.chain.replacedBlock"),
      key: "block",
      width: 110,
      render: (_, row) => alertDetails(row).block ?? "—",
    },
    {
      title: t("admin.columns.created"),
      dataIndex: "createdAt",
      width: 130,
      render: (value: string) => <DateTime value={value} stacked />,
    },
    {
      title: t("admin.columns.actions"),
      key: "actions",
      width: 150,
      fixed: "right",
      render: (_, row) => (
        <Button
          size="small"
          onClick={() => setPending({ kind: "resolve", alert: row })}
          data-testid={`admin-chain-alert-resolve-${row.id}`}
        >
          {t("admin.chain.resolve")}
        </Button>
      ),
    },
  ];

  const payoutColumns: TableColumnsType<WithdrawalRow> = [
    { title: t("fields.id"), dataIndex: "id", width: 64 },
    { title: t("admin.columns.user"), dataIndex: "userId", width: 72 },
    {
      title: t("fields.currency"),
      dataIndex: "currency",
      width: 80,
      render: (value: string) => <Typography.Text strong>{value}</Typography.Text>,
    },
    {
      title: t("admin.columns.received"),
      dataIndex: "received",
      width: 110,
      align: "right",
      render: (value: string) => <Amount value={value} />,
    },
    {
      title: t("admin.columns.destination"),
      key: "destination",
      width: 220,
      render: (_, row) => (
        <Flex vertical gap={2}>
          <Code value={row.address} width={200} />
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {row.chain ?? "—"}
          </Typography.Text>
        </Flex>
      ),
    },
    {
      title: t("admin.columns.time"),
      dataIndex: "createdAt",
      width: 130,
      render: (value: string) => <DateTime value={value} stacked />,
    },
    {
      title: t("admin.columns.actions"),
      key: "actions",
      width: 120,
      fixed: "right",
      render: (_, row) => (
        <Button
          size="small"
          type="primary"
          onClick={() => setPending({ kind: "release", payout: row })}
          data-testid={`admin-chain-release-${row.id}`}
        >
          {t("admin.withdrawals.release")}
        </Button>
      ),
    },
  ];

  const sweepColumns: TableColumnsType<ChainSweepRow> = [
    { title: t("fields.id"), dataIndex: "id", width: 64 },
    {
      title: t("fields.status"),
      dataIndex: "status",
      width: 110,
      render: (status: ChainSweepRow["status"], row) => (
        <Tag
          color={SWEEP_COLORS[status]}
          data-testid={`admin-chain-sweep-status-${row.id}`}
          data-status={status}
        >
          {t(`admin.sweeps.status.${status}`)}
        </Tag>
      ),
    },
    {
      title: t("admin.sweeps.columns.address"),
      key: "address",
      width: 220,
      render: (_, row) => <Code value={row.address} width={200} />,
    },
    {
      title: t("admin.sweeps.columns.amount"),
      key: "amount",
      width: 130,
      align: "right",
      render: (_, row) => (
        <span>
          <Amount value={row.amount} /> <Typography.Text type="secondary">{row.currency}</Typography.Text>
        </span>
      ),
    },
    {
      title: t("admin.sweeps.columns.gasTopUp"),
      dataIndex: "gasTopUp",
      width: 130,
      align: "right",
      render: (value: string) => <Amount value={value} />,
    },
    {
      title: t("admin.sweeps.columns.fee"),
      key: "fee",
      width: 130,
      align: "right",
      render: (_, row) => <Amount value={gasPaidOf(row)} />,
    },
    {
      title: t("admin.sweeps.columns.tx"),
      key: "tx",
      width: 220,
      render: (_, row) =>
        row.sweepHash ? (
          <span title={row.sweepHash} data-testid={`admin-chain-sweep-tx-${row.id}`}>
            <Code value={row.sweepHash} width={200} />
          </span>
        ) : (
          <Typography.Text type="secondary">—</Typography.Text>
        ),
    },
    {
      title: t("admin.sweeps.columns.created"),
      dataIndex: "createdAt",
      width: 130,
      render: (value: string) => <DateTime value={value} stacked />,
    },
  ];

  const dialog = dialogOf(pending, t);
  const refresh = () => {
    void alerts.refetch();
    void held.refetch();
    if (mayCustody) {
      void sweeps.refetch();
    }
  };

  return (
    <AdminPage
      title={t("admin.chain.title")}
      extra={
        <RefreshButton
          onClick={refresh}
          loading={alerts.isFetching || held.isFetching || (mayCustody && sweeps.isFetching)}
        />
      }
    >
      <Flex vertical gap={8}>
        <Typography.Title level={5} style={{ margin: 0 }}>
          {t("admin.chain.alertsTitle")}
        </Typography.Title>
        <Typography.Text type="secondary">{t("admin.chain.alertsNote")}</Typography.Text>
        <QueueTable<ChainAlertRow>
          list={alerts}
          columns={alertColumns}
          rowTestIdPrefix="admin-chain-alert-"
          emptyText={t("admin.chain.alertsEmpty")}
          testId="admin-chain-alerts"
          paged={false}
        />
      </Flex>
      <Flex vertical gap={8}>
        <Typography.Title level={5} style={{ margin: 0 }}>
          {t("admin.chain.heldTitle")}
        </Typography.Title>
        <Typography.Text type="secondary">{t("admin.chain.heldNote")}</Typography.Text>
        <QueueTable<WithdrawalRow>
          list={held}
          columns={payoutColumns}
          rowTestIdPrefix="admin-chain-held-"
          emptyText={t("admin.chain.heldEmpty")}
          testId="admin-chain-held"
          paged={false}
        />
      </Flex>
      {mayCustody && (
        <Flex vertical gap={8}>
          <Typography.Title level={5} style={{ margin: 0 }}>
            {t("admin.sweeps.title")}
          </Typography.Title>
          <Typography.Text type="secondary">{t("admin.sweeps.intro")}</Typography.Text>
          <QueueTable<ChainSweepRow>
            list={sweeps}
            columns={sweepColumns}
            rowTestIdPrefix="admin-chain-sweep-"
            emptyText={t("admin.sweeps.empty")}
            testId="admin-chain-sweeps"
          />
        </Flex>
      )}
      <ConfirmActionDialog
        open={pending !== null}
        title={dialog.title}
        description={dialog.description}
        okText={dialog.okText}
        onClose={() => setPending(null)}
        onSubmit={async () => {
          if (!pending) {
            return;
          }
          try {
            if (pending.kind === "resolve") {
              const { resolved } = await resolve.mutateAsync({ id: pending.alert.id });
              if (resolved) {
                feedback.success(t("admin.chain.resolved", { id: pending.alert.id }));
              } else {
                feedback.info(t("admin.chain.alreadyResolved", { id: pending.alert.id }));
              }
            } else {
              await release.mutateAsync({ id: pending.payout.id });
              feedback.success(t("admin.withdrawals.released", { id: pending.payout.id }));
            }
          } finally {
            void queryClient.invalidateQueries();
          }
        }}
      />
    </AdminPage>
  );
}

const SWEEP_COLORS: Record<ChainSweepRow["status"], string> = {
  planned: "default",
  gas_sent: "processing",
  sent: "processing",
  confirmed: "success",
  failed: "error",
};

/** The gas a sweep cost: the hot wallet's top-up transaction and the address's own (decimal.js). */
function gasPaidOf(row: ChainSweepRow): string | null {
  if (row.topUpFee === null && row.sweepFee === null) {
    return null;
  }
  return money(row.topUpFee ?? "0")
    .plus(row.sweepFee ?? "0")
    .toFixed();
}

function dialogOf(pending: Pending | null, t: (key: string, options?: Record<string, unknown>) => string) {
  if (pending?.kind === "resolve") {
    const d = alertDetails(pending.alert);
    return {
      title: t("admin.chain.resolveTitle", { id: pending.alert.id }),
      description: (
        <Flex vertical gap={8}>
          <span>{t("admin.chain.resolveBody")}</span>
          {d.txHash && (
            <Typography.Text code copyable style={{ wordBreak: "break-all" }}>
              {d.txHash}
            </Typography.Text>
          )}
        </Flex>
      ),
      okText: t("admin.chain.resolve"),
    };
  }
  if (pending?.kind === "release") {
    const row = pending.payout;
    return {
      title: t("admin.withdrawals.releaseTitle", { id: row.id }),
      description: (
        <Flex vertical gap={8}>
          <span>
            {t("admin.withdrawals.releaseBody", {
              received: trimAmount(row.received),
              currency: row.currency,
            })}
          </span>
          <Typography.Text code copyable style={{ wordBreak: "break-all" }}>
            {row.address}
          </Typography.Text>
        </Flex>
      ),
      okText: t("admin.withdrawals.release"),
    };
  }
  return { title: "", description: null, okText: "" };
}
