import type { AppRouter } from "@northstar/api/trpc";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { Button, Form, Input, Modal, Table, type TableColumnsType } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useTRPC } from "../../lib/trpc.ts";
import { Amount } from "./admin-amount.tsx";
import { AdminPage, QueryError } from "./admin-page.tsx";

type Budget = inferRouterOutputs<AppRouter>["rewardsAdmin"]["budget"][number];

/**
 * The marketing budget that pays sign-in rewards: its balance per currency, what rewards have paid,
 * and funding it (a ledger entry; the server audits it). A claim the budget cannot pay is refused.
 */
export function RewardsAdminPage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const budget = useQuery(trpc.rewardsAdmin.budget.queryOptions());
  const fund = useMutation(trpc.rewardsAdmin.fundBudget.mutationOptions({ meta: { inline: true } }));
  const [open, setOpen] = useState(false);
  const [form] = Form.useForm<{ currency: string; amount: string }>();
  const columns: TableColumnsType<Budget> = [
    { title: t("rewards.admin.currency"), dataIndex: "currency" },
    {
      title: t("rewards.admin.balance"),
      dataIndex: "balance",
      align: "right",
      render: (v: string) => <Amount value={v} />,
    },
    {
      title: t("rewards.admin.paid"),
      dataIndex: "paid",
      align: "right",
      render: (v: string) => <Amount value={v} />,
    },
    { title: t("rewards.admin.claims"), dataIndex: "claims", align: "right" },
  ];
  return (
    <AdminPage
      title={t("rewards.admin.budget")}
      extra={
        <Button type="primary" onClick={() => setOpen(true)} data-testid="admin-budget-fund">
          {t("rewards.admin.fund")}
        </Button>
      }
    >
      {budget.isError ? (
        <QueryError error={budget.error} onRetry={() => void budget.refetch()} />
      ) : (
        <Table<Budget>
          rowKey="currency"
          size="small"
          loading={budget.isPending}
          dataSource={budget.data ?? []}
          columns={columns}
          pagination={false}
        />
      )}
      <Modal
        open={open}
        title={t("rewards.admin.fund")}
        okText={t("rewards.admin.fund")}
        confirmLoading={fund.isPending}
        onCancel={() => setOpen(false)}
        onOk={() =>
          void form.validateFields().then((values) =>
            fund.mutateAsync(values).then(() => {
              setOpen(false);
              form.resetFields();
              return queryClient.invalidateQueries(trpc.rewardsAdmin.pathFilter());
            }),
          )
        }
      >
        <p>{t("rewards.admin.fundHint")}</p>
        <Form form={form} layout="vertical" initialValues={{ currency: "USDT" }}>
          <Form.Item name="currency" label={t("rewards.admin.currency")} rules={[{ required: true }]}>
            <Input />
          </Form.Item>
          <Form.Item name="amount" label={t("rewards.admin.amount")} rules={[{ required: true }]}>
            <Input inputMode="decimal" data-testid="admin-budget-amount" />
          </Form.Item>
        </Form>
      </Modal>
    </AdminPage>
  );
}
