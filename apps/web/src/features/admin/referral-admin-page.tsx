import type { AppRouter } from "@northstar/api/trpc";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { Button, Flex, Input, Table, type TableColumnsType, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useTRPC } from "../../lib/trpc.ts";
import { Amount } from "./admin-amount.tsx";
import { AdminPage, QueryError } from "./admin-page.tsx";
import { ConfirmActionDialog } from "./confirm-action-dialog.tsx";

type Payouts = inferRouterOutputs<AppRouter>["referralAdmin"]["payouts"];
type Payout = Payouts["items"][number];
type Run = Payouts["runs"][number];

const yesterday = () => new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);

/**
 * Referral payouts in the back office: one line per day, inviter and currency (one ledger entry each),
 * the daily runs, and paying an ended day now (the daily job does it; a paid day pays nothing).
 */
export function ReferralAdminPage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [day, setDay] = useState("");
  const [runDay, setRunDay] = useState(yesterday());
  const [confirming, setConfirming] = useState(false);
  const payouts = useQuery(
    trpc.referralAdmin.payouts.queryOptions({
      day: /^\d{4}-\d{2}-\d{2}$/.test(day) ? day : undefined,
      page: 1,
      page_size: 100,
    }),
  );
  const run = useMutation(trpc.referralAdmin.runDay.mutationOptions({ meta: { inline: true } }));
  const columns: TableColumnsType<Payout> = [
    { title: t("referral.admin.day"), dataIndex: "day", width: 120 },
    { title: t("referral.admin.inviter"), dataIndex: "uid" },
    { title: t("referral.admin.currency"), dataIndex: "currency", width: 100 },
    {
      title: t("referral.admin.amount"),
      dataIndex: "amount",
      align: "right",
      render: (v: string) => <Amount value={v} />,
    },
    {
      title: t("referral.admin.fees"),
      dataIndex: "fees",
      align: "right",
      render: (v: string) => <Amount value={v} />,
    },
    { title: t("referral.admin.invitees"), dataIndex: "invitees", align: "right" },
  ];
  const runColumns: TableColumnsType<Run> = [
    { title: t("referral.admin.day"), dataIndex: "day" },
    { title: t("referral.admin.feePostings"), dataIndex: "feePostings", align: "right" },
    { title: t("referral.admin.rewards"), dataIndex: "rewards", align: "right" },
  ];
  return (
    <AdminPage
      title={t("referral.admin.payouts")}
      extra={
        <Flex gap={8}>
          <Input
            value={runDay}
            onChange={(e) => setRunDay(e.target.value)}
            style={{ width: 130 }}
            data-testid="admin-referral-run-day"
          />
          <Button type="primary" onClick={() => setConfirming(true)} data-testid="admin-referral-run">
            {t("referral.admin.run")}
          </Button>
        </Flex>
      }
    >
      <Input
        allowClear
        placeholder="YYYY-MM-DD"
        value={day}
        onChange={(e) => setDay(e.target.value.trim())}
        style={{ width: 160, marginBottom: 12 }}
      />
      {payouts.isError ? (
        <QueryError error={payouts.error} onRetry={() => void payouts.refetch()} />
      ) : (
        <>
          <Table<Payout>
            rowKey={(p) => `${p.day}:${p.beneficiaryId}:${p.currency}`}
            size="small"
            loading={payouts.isPending}
            dataSource={payouts.data?.items ?? []}
            columns={columns}
            scroll={{ x: 800 }}
            pagination={false}
          />
          <Typography.Title level={5} style={{ marginTop: 24 }}>
            {t("referral.admin.runs")}
          </Typography.Title>
          <Table<Run>
            rowKey="day"
            size="small"
            dataSource={payouts.data?.runs ?? []}
            columns={runColumns}
            pagination={false}
          />
        </>
      )}
      <ConfirmActionDialog
        open={confirming}
        title={`${t("referral.admin.run")} ${runDay}`}
        description={t("referral.admin.runHint")}
        okText={t("referral.admin.run")}
        onSubmit={() =>
          run
            .mutateAsync({ day: runDay })
            .then(() => queryClient.invalidateQueries(trpc.referralAdmin.pathFilter()))
        }
        onClose={() => setConfirming(false)}
      />
    </AdminPage>
  );
}
