import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Button, Form, Input, Modal, Switch, Table, type TableColumnsType } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { feedback } from "../../lib/feedback.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { ratePercent } from "../loans/loan-rules.ts";
import type { LoanProduct } from "../loans/loan-types.ts";
import { QueryError } from "./admin-page.tsx";

type ProductForm = {
  name: string;
  currency: string;
  cycles: string;
  daily_rate: string;
  overdue_rate: string;
  min_amount: string;
  max_amount: string;
};

const cyclesOf = (text: string) =>
  text
    .split(/[,\s]+/)
    .filter(Boolean)
    .map(Number);

/** Loan products: create one, switch one on or off (loans already applied for keep their terms). */
export function LoanProductsAdmin() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const products = useQuery(trpc.adminLoans.products.queryOptions());
  const create = useMutation(trpc.adminLoans.createProduct.mutationOptions());
  const update = useMutation(trpc.adminLoans.updateProduct.mutationOptions());
  const [open, setOpen] = useState(false);
  const [form] = Form.useForm<ProductForm>();
  const refresh = () => queryClient.invalidateQueries(trpc.adminLoans.pathFilter());
  const input = (p: LoanProduct, enabled: boolean) => ({
    name: p.name,
    currency: p.currency,
    cycle_days: p.cycleDays,
    daily_rate: p.dailyRate,
    overdue_rate: p.overdueRate,
    min_amount: p.minAmount,
    max_amount: p.maxAmount,
    enabled,
  });

  const columns: TableColumnsType<LoanProduct> = [
    { title: "ID", dataIndex: "id", width: 56 },
    { title: t("loans.admin.name"), dataIndex: "name" },
    { title: t("loans.cycle"), key: "cycles", render: (_, p) => p.cycleDays.join(", ") },
    { title: t("loans.dailyRate"), key: "rate", render: (_, p) => `${ratePercent(p.dailyRate)}%` },
    { title: t("loans.overdueRate"), key: "overdue", render: (_, p) => `${ratePercent(p.overdueRate)}%` },
    {
      title: t("loans.range"),
      key: "range",
      render: (_, p) => `${p.minAmount} – ${p.maxAmount} ${p.currency}`,
    },
    {
      title: t("loans.admin.enabled"),
      key: "enabled",
      render: (_, p) => (
        <Switch
          size="small"
          checked={p.enabled}
          loading={update.isPending}
          onChange={(on) =>
            update.mutate({ id: p.id, data: input(p, on) }, { onSuccess: () => void refresh() })
          }
        />
      ),
    },
  ];
  if (products.isError) {
    return <QueryError error={products.error} onRetry={() => void products.refetch()} />;
  }
  return (
    <>
      <Button
        type="primary"
        onClick={() => setOpen(true)}
        style={{ marginBottom: 12 }}
        data-testid="loans-admin-new-product"
      >
        {t("loans.admin.newProduct")}
      </Button>
      <Table<LoanProduct>
        rowKey="id"
        size="small"
        loading={products.isPending}
        dataSource={products.data ?? []}
        columns={columns}
        scroll={{ x: 720 }}
        pagination={false}
      />
      <Modal
        open={open}
        title={t("loans.admin.newProduct")}
        okText={t("loans.admin.create")}
        confirmLoading={create.isPending}
        onCancel={() => setOpen(false)}
        onOk={() => form.submit()}
        destroyOnHidden
      >
        <Form<ProductForm>
          form={form}
          layout="vertical"
          initialValues={{
            currency: "USDT",
            cycles: "7, 14, 30",
            daily_rate: "0.001",
            overdue_rate: "0.005",
          }}
          onFinish={(v) =>
            create.mutate(
              { ...v, cycle_days: cyclesOf(v.cycles), enabled: true },
              {
                onSuccess: () => {
                  feedback.success(t("loans.admin.created"));
                  setOpen(false);
                  void refresh();
                },
              },
            )
          }
        >
          <Form.Item name="name" label={t("loans.admin.name")} rules={[{ required: true }]}>
            <Input />
          </Form.Item>
          <Form.Item name="currency" label={t("fields.currency")} rules={[{ required: true }]}>
            <Input />
          </Form.Item>
          <Form.Item name="cycles" label={t("loans.admin.cycles")} rules={[{ required: true }]}>
            <Input />
          </Form.Item>
          <Form.Item name="daily_rate" label={t("loans.dailyRate")} rules={[{ required: true }]}>
            <Input />
          </Form.Item>
          <Form.Item name="overdue_rate" label={t("loans.overdueRate")} rules={[{ required: true }]}>
            <Input />
          </Form.Item>
          <Form.Item name="min_amount" label={t("loans.admin.min")} rules={[{ required: true }]}>
            <Input />
          </Form.Item>
          <Form.Item name="max_amount" label={t("loans.admin.max")} rules={[{ required: true }]}>
            <Input />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}
