import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Button, Flex, Form, Input, Select, Table } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { feedback } from "../../lib/feedback.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { rateText } from "../earn/earn-rules.ts";
import { QueryError } from "./admin-page.tsx";

/** The daily rate schedule of a range product: published for a day that has not started, never changed. */
export function EarnRatesAdmin() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const products = useQuery(trpc.adminEarn.products.queryOptions());
  const ranged = (products.data ?? []).filter((p) => !p.fixedRate);
  const [productId, setProductId] = useState<number>();
  const selected = ranged.find((p) => p.id === productId) ?? ranged[0];
  const rates = useQuery(
    trpc.adminEarn.rates.queryOptions({ id: selected?.id ?? 0 }, { enabled: !!selected }),
  );
  const publish = useMutation(trpc.adminEarn.publishRate.mutationOptions());
  const [form] = Form.useForm<{ day: string; rate: string }>();

  if (products.isError) {
    return <QueryError error={products.error} onRetry={() => void products.refetch()} />;
  }
  return (
    <Flex vertical gap={12}>
      <Select
        style={{ maxWidth: 360 }}
        value={selected?.id}
        onChange={setProductId}
        loading={products.isPending}
        options={ranged.map((p) => ({ value: p.id, label: `${p.name} (${rateText(p.rateMin, p.rateMax)})` }))}
      />
      {selected && (
        <Form
          form={form}
          layout="inline"
          onFinish={(v) =>
            void publish
              .mutateAsync({ product_id: selected.id, day: v.day, rate: v.rate })
              .then(() => {
                feedback.success(t("earn.admin.saved"));
                form.resetFields();
                void queryClient.invalidateQueries(trpc.adminEarn.rates.pathFilter());
              })
              .catch(() => undefined)
          }
        >
          <Form.Item
            name="day"
            label={t("earn.admin.day")}
            rules={[{ required: true, pattern: /^\d{4}-\d{2}-\d{2}$/ }]}
          >
            <Input placeholder="YYYY-MM-DD" />
          </Form.Item>
          <Form.Item
            name="rate"
            label={t("earn.admin.rate")}
            rules={[{ required: true, pattern: /^0(\.\d{1,8})?$/ }]}
          >
            <Input placeholder="0.004" inputMode="decimal" />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={publish.isPending}>
            {t("earn.admin.publish")}
          </Button>
        </Form>
      )}
      <Table
        rowKey="day"
        size="small"
        loading={rates.isFetching}
        dataSource={rates.data ?? []}
        pagination={false}
        columns={[
          { title: t("earn.admin.day"), dataIndex: "day" },
          { title: t("earn.admin.rate"), dataIndex: "rate", render: (r: string) => rateText(r, r) },
        ]}
      />
    </Flex>
  );
}

/** The yield the daily job paid, per day and product, latest first; and a manual run (idempotent). */
export function EarnYieldAdmin() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const report = useQuery(trpc.adminEarn.yieldReport.queryOptions());
  const run = useMutation(trpc.adminEarn.runYield.mutationOptions());
  if (report.isError) {
    return <QueryError error={report.error} onRetry={() => void report.refetch()} />;
  }
  return (
    <Flex vertical gap={12}>
      <Button
        style={{ alignSelf: "flex-start" }}
        loading={run.isPending}
        onClick={() =>
          void run
            .mutateAsync()
            .then(() => queryClient.invalidateQueries(trpc.adminEarn.yieldReport.pathFilter()))
        }
      >
        {t("earn.admin.runYield")}
      </Button>
      <Table
        rowKey={(r) => `${r.day}-${r.productId}`}
        size="small"
        loading={report.isPending}
        dataSource={report.data ?? []}
        pagination={false}
        columns={[
          { title: t("earn.admin.day"), dataIndex: "day" },
          { title: t("earn.admin.product"), dataIndex: "productId" },
          { title: t("earn.admin.ordersPaid"), dataIndex: "orders" },
          { title: t("earn.profit"), dataIndex: "amount", align: "right" },
        ]}
      />
    </Flex>
  );
}
