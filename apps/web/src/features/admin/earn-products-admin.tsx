import {
  EARN_CYCLES,
  EARN_FAMILIES,
  EARN_REDEMPTION_RULES,
  EARN_RISK_LEVELS,
} from "@northstar/shared/contracts/earn";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Button, Form, Input, InputNumber, Modal, Select, Switch, Table, type TableColumnsType } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { feedback } from "../../lib/feedback.ts";
import { usePolicy } from "../../lib/policy.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { ratePercent, rateText } from "../earn/earn-rules.ts";
import type { EarnProduct } from "../earn/earn-types.ts";
import { QueryError } from "./admin-page.tsx";

type ProductForm = {
  family: (typeof EARN_FAMILIES)[number];
  name: string;
  currency: string;
  cycle_days: number;
  rate_min: string;
  rate_max: string;
  min_amount: string;
  max_amount: string;
  user_limit: string;
  user_count: number;
  capacity: string;
  risk_level: (typeof EARN_RISK_LEVELS)[number];
  redemption_rule: (typeof EARN_REDEMPTION_RULES)[number];
};

export function EarnProductsAdmin() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const products = useQuery(trpc.adminEarn.products.queryOptions());
  const setOnSale = useMutation(trpc.adminEarn.setOnSale.mutationOptions());
  const create = useMutation(trpc.adminEarn.createProduct.mutationOptions());
  const percent = ratePercent(usePolicy()["earn.redemption.percent"]);
  const [open, setOpen] = useState(false);
  const [form] = Form.useForm<ProductForm>();
  const refresh = () => queryClient.invalidateQueries(trpc.adminEarn.pathFilter());

  const columns: TableColumnsType<EarnProduct> = [
    { title: "ID", dataIndex: "id", width: 56 },
    { title: t("earn.admin.name"), dataIndex: "name" },
    { title: t("earn.admin.family"), dataIndex: "family", render: (f: string) => t(`earn.families.${f}`) },
    { title: t("earn.cycle"), dataIndex: "cycleDays", render: (d: number) => t("earn.days", { count: d }) },
    { title: t("earn.dailyRate"), key: "rate", render: (_, p) => rateText(p.rateMin, p.rateMax) },
    {
      title: t("earn.limits"),
      key: "limits",
      render: (_, p) => `${p.minAmount} – ${p.maxAmount} ${p.currency}`,
    },
    { title: t("earn.remaining"), key: "remaining", render: (_, p) => `${p.remaining} / ${p.capacity}` },
    {
      title: t("earn.admin.rule"),
      dataIndex: "redemptionRule",
      render: (r: string) => t(`earn.rule.${r}`, { percent }),
    },
    {
      title: t("earn.admin.onSale"),
      dataIndex: "onSale",
      render: (on: boolean, p) => (
        <Switch
          checked={on}
          loading={setOnSale.isPending}
          onChange={(next) => setOnSale.mutateAsync({ id: p.id, on_sale: next }).then(refresh)}
          data-testid={`earn-admin-sale-${p.id}`}
        />
      ),
    },
  ];

  const submit = (values: ProductForm) =>
    create.mutateAsync(values).then(() => {
      feedback.success(t("earn.admin.saved"));
      setOpen(false);
      form.resetFields();
      void refresh();
    });

  if (products.isError) {
    return <QueryError error={products.error} onRetry={() => void products.refetch()} />;
  }
  return (
    <>
      <Button
        type="primary"
        onClick={() => setOpen(true)}
        style={{ marginBottom: 12 }}
        data-testid="earn-admin-new"
      >
        {t("earn.admin.create")}
      </Button>
      <Table<EarnProduct>
        rowKey="id"
        size="small"
        loading={products.isPending}
        dataSource={products.data ?? []}
        columns={columns}
        scroll={{ x: 900 }}
        pagination={false}
      />
      <Modal
        open={open}
        title={t("earn.admin.create")}
        onCancel={() => setOpen(false)}
        onOk={() => form.submit()}
        confirmLoading={create.isPending}
        destroyOnHidden
      >
        <Form<ProductForm>
          form={form}
          layout="vertical"
          onFinish={(v) => void submit(v).catch(() => undefined)}
          initialValues={{
            family: "ai",
            currency: "USDT",
            cycle_days: 7,
            user_count: 5,
            risk_level: "balanced",
            redemption_rule: "percent",
          }}
        >
          <Form.Item name="family" label={t("earn.admin.family")}>
            <Select options={EARN_FAMILIES.map((f) => ({ value: f, label: t(`earn.families.${f}`) }))} />
          </Form.Item>
          <Form.Item name="name" label={t("earn.admin.name")} rules={[{ required: true, max: 80 }]}>
            <Input />
          </Form.Item>
          <Form.Item name="currency" label={t("earn.admin.currency")} rules={[{ required: true }]}>
            <Input />
          </Form.Item>
          <Form.Item name="cycle_days" label={t("earn.cycle")}>
            <Select options={EARN_CYCLES.map((d) => ({ value: d, label: t("earn.days", { count: d }) }))} />
          </Form.Item>
          {(
            [
              ["rate_min", "earn.admin.rateMin"],
              ["rate_max", "earn.admin.rateMax"],
              ["min_amount", "earn.admin.minAmount"],
              ["max_amount", "earn.admin.maxAmount"],
              ["user_limit", "earn.userLimit"],
              ["capacity", "earn.admin.capacity"],
            ] as const
          ).map(([name, label]) => (
            <Form.Item
              key={name}
              name={name}
              label={t(label)}
              rules={[{ required: true, pattern: /^\d+(\.\d+)?$/ }]}
              // Rates are fractions of the principal per day; the hint says so with the percentage.
              extra={name === "rate_min" || name === "rate_max" ? t("earn.admin.rateUnit") : undefined}
            >
              <Input inputMode="decimal" />
            </Form.Item>
          ))}
          <Form.Item name="user_count" label={t("earn.userCount")}>
            <InputNumber min={1} max={1000} precision={0} />
          </Form.Item>
          <Form.Item name="risk_level" label={t("earn.riskLevel")}>
            <Select options={EARN_RISK_LEVELS.map((r) => ({ value: r, label: t(`earn.risk.${r}`) }))} />
          </Form.Item>
          <Form.Item name="redemption_rule" label={t("earn.admin.rule")}>
            <Select
              options={EARN_REDEMPTION_RULES.map((r) => ({
                value: r,
                label: t(`earn.rule.${r}`, { percent }),
              }))}
            />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}
