import type { AppRouter } from "@northstar/api/trpc";
import { useQuery } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import type { TableColumnsType } from "antd";
import { Alert, Card, Flex, Table, Tag } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useTRPC } from "../../lib/trpc.ts";
import { Amount } from "./admin-amount.tsx";
import { AdminPage, QueryError, RefreshButton } from "./admin-page.tsx";
import { DateTime } from "./date-time.tsx";

type Outputs = inferRouterOutputs<AppRouter>["optionsAdmin"];
type Exposure = Outputs["exposure"][number];
type House = Outputs["houseResult"][number];
type Settled = Outputs["settled"]["items"][number];
type Product = Outputs["products"][number];

/**
 * Options in the back office: the products (edited as the `options.products` policy, audited),
 * the open exposure per instrument and period, the house result and the settled orders. Nothing
 * here can set a price or an outcome: orders settle by the recorded feed tick only.
 */
export function OptionsAdminPage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const [page, setPage] = useState(1);
  const products = useQuery(trpc.optionsAdmin.products.queryOptions());
  const exposure = useQuery(trpc.optionsAdmin.exposure.queryOptions(undefined, { staleTime: 0 }));
  const house = useQuery(trpc.optionsAdmin.houseResult.queryOptions(undefined, { staleTime: 0 }));
  const settled = useQuery(trpc.optionsAdmin.settled.queryOptions({ page, page_size: 20 }));
  const refetch = () => {
    void exposure.refetch();
    void house.refetch();
    void settled.refetch();
    void products.refetch();
  };
  const book = (v: string) => t(`admin.book.${v}`, { defaultValue: v });

  const productColumns: TableColumnsType<Product> = [
    { title: t("options.instrument"), dataIndex: "symbol" },
    {
      title: t("options.period"),
      key: "periods",
      render: (_, p) => (
        <Flex gap={4} wrap>
          {p.periods.map((x) => (
            <Tag key={x.seconds}>
              {x.seconds}s · {x.payout_rate} · {x.fee_rate} · {x.min}–{x.max}
            </Tag>
          ))}
        </Flex>
      ),
    },
    {
      title: t("options.tie"),
      dataIndex: "tie",
      render: (v: string) => t(v === "refund" ? "options.tieRefund" : "options.tieLoss"),
    },
  ];
  const exposureColumns: TableColumnsType<Exposure> = [
    { title: t("options.book"), dataIndex: "book", render: book },
    { title: t("options.instrument"), dataIndex: "symbol" },
    { title: t("options.period"), dataIndex: "period_seconds", render: (v: number) => `${v}s` },
    { title: t("options.orders"), dataIndex: "orders", align: "right" },
    {
      title: t("options.upAmount"),
      dataIndex: "up_amount",
      align: "right",
      render: (v: string) => <Amount value={v} />,
    },
    {
      title: t("options.downAmount"),
      dataIndex: "down_amount",
      align: "right",
      render: (v: string) => <Amount value={v} />,
    },
  ];
  const houseColumns: TableColumnsType<House> = [
    { title: t("options.book"), dataIndex: "book", render: book },
    { title: t("options.orders"), dataIndex: "orders", align: "right" },
    {
      title: t("options.amount"),
      dataIndex: "amount",
      align: "right",
      render: (v: string) => <Amount value={v} />,
    },
    {
      title: t("options.fees"),
      dataIndex: "fees",
      align: "right",
      render: (v: string) => <Amount value={v} />,
    },
    {
      title: t("options.payouts"),
      dataIndex: "payouts",
      align: "right",
      render: (v: string) => <Amount value={v} />,
    },
    {
      title: t("options.result"),
      dataIndex: "result",
      align: "right",
      render: (v: string) => <Amount value={v} signed />,
    },
  ];
  const settledColumns: TableColumnsType<Settled> = [
    { title: "#", dataIndex: "id" },
    { title: t("options.user"), dataIndex: "user_id" },
    { title: t("options.book"), dataIndex: "book", render: book },
    { title: t("options.instrument"), dataIndex: "symbol" },
    { title: t("options.direction"), dataIndex: "direction", render: (v: string) => t(`options.${v}`) },
    {
      title: t("options.amount"),
      dataIndex: "amount",
      align: "right",
      render: (v: string) => <Amount value={v} />,
    },
    {
      title: t("options.purchasePrice"),
      dataIndex: "purchase_price",
      align: "right",
      render: (v: string) => <Amount value={v} />,
    },
    {
      title: t("options.settlementPrice"),
      dataIndex: "settlement_price",
      align: "right",
      render: (v: string) => <Amount value={v} />,
    },
    {
      title: t("options.profit"),
      dataIndex: "profit",
      align: "right",
      render: (v: string) => <Amount value={v} signed />,
    },
    {
      title: t("options.deliveryTime"),
      dataIndex: "settled_at",
      render: (v: string | null) => (v ? <DateTime value={new Date(v)} /> : "—"),
    },
  ];

  const section = <T extends object>(
    title: string,
    query: { isPending: boolean; isError: boolean; error: unknown; refetch: () => unknown },
    rows: T[] | undefined,
    columns: TableColumnsType<T>,
    rowKey: (row: T) => string,
    extra?: Partial<Parameters<typeof Table<T>>[0]>,
  ) => (
    <Card size="small" title={title}>
      {query.isError ? (
        <QueryError error={query.error} onRetry={() => void query.refetch()} />
      ) : (
        <Table<T>
          size="small"
          loading={query.isPending}
          dataSource={rows ?? []}
          columns={columns}
          rowKey={rowKey}
          pagination={false}
          scroll={{ x: "max-content" }}
          {...extra}
        />
      )}
    </Card>
  );

  return (
    <AdminPage
      title={t("admin.menu.options")}
      extra={<RefreshButton onClick={refetch} loading={exposure.isFetching || settled.isFetching} />}
    >
      <Alert type="info" showIcon title={t("options.honest")} />
      {section(t("options.products"), products, products.data, productColumns, (p) => p.symbol)}
      {section(
        t("options.exposure"),
        exposure,
        exposure.data,
        exposureColumns,
        (r) => `${r.book}|${r.symbol}|${r.period_seconds}`,
      )}
      {section(t("options.house"), house, house.data, houseColumns, (r) => r.book)}
      {section(t("options.settled"), settled, settled.data?.items, settledColumns, (r) => String(r.id), {
        pagination: {
          current: page,
          pageSize: 20,
          total: settled.data?.total ?? 0,
          onChange: setPage,
          showSizeChanger: false,
        },
      })}
    </AdminPage>
  );
}
