import type { AppRouter } from "@northstar/api/trpc";
import { useQuery } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import type { TableColumnsType } from "antd";
import { Alert, Card, Table, Tag } from "antd";
import { useTranslation } from "react-i18next";
import { useTRPC } from "../../lib/trpc.ts";
import { Amount } from "./admin-amount.tsx";
import { AdminPage, QueryError, RefreshButton } from "./admin-page.tsx";
import { DateTime } from "./date-time.tsx";

type Outputs = inferRouterOutputs<AppRouter>["contractsAdmin"];
type Product = Outputs["products"][number];
type Exposure = Outputs["exposure"][number];
type HouseAccount = Outputs["houseResult"]["accounts"][number];
type HouseCloses = Outputs["houseResult"]["closes"][number];
type Liquidation = Outputs["liquidations"][number];

/**
 * Contracts in the back office: the products (their terms and leverage levels are the
 * `contracts.*` policy values, edited on the policy page and audited), open exposure per
 * instrument, the house and insurance accounts with closes by reason, and the liquidations log
 * with the recorded tick each used. Nothing here can move a price, a result or a liquidation.
 */
export function ContractsAdminPage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const products = useQuery(trpc.contractsAdmin.products.queryOptions());
  const exposure = useQuery(trpc.contractsAdmin.exposure.queryOptions(undefined, { staleTime: 0 }));
  const house = useQuery(trpc.contractsAdmin.houseResult.queryOptions(undefined, { staleTime: 0 }));
  const liquidations = useQuery(
    trpc.contractsAdmin.liquidations.queryOptions({ limit: 100 }, { staleTime: 0 }),
  );
  const refetch = () => {
    void products.refetch();
    void exposure.refetch();
    void house.refetch();
    void liquidations.refetch();
  };
  const book = (v: string) => t(`admin.book.${v}`, { defaultValue: v });
  const amount = (v: string) => <Amount value={v} />;

  const productColumns: TableColumnsType<Product> = [
    { title: t("contracts.instrument"), dataIndex: "symbol" },
    {
      title: t("contracts.category"),
      dataIndex: "category",
      render: (c: string) => t(`market.categories.${c}`),
    },
    { title: t("contracts.type"), dataIndex: "type", render: (v: string) => t(`contracts.${v}`) },
    { title: t("contracts.contractSize"), dataIndex: "contract_size", align: "right" },
    {
      title: t("contracts.lots"),
      key: "lots",
      render: (_, p) => t("contracts.lotRange", { min: p.min_lots, max: p.max_lots, step: p.lot_step }),
    },
    {
      title: t("contracts.leverage"),
      dataIndex: "leverage",
      render: (l: number[]) => l.map((x) => `${x}x`).join(" "),
    },
    { title: t("contracts.fee"), dataIndex: "fee_rate", align: "right" },
    { title: t("contracts.overnightRate"), dataIndex: "overnight_rate", align: "right" },
    { title: t("contracts.maintenanceRate"), dataIndex: "maintenance_rate", align: "right" },
    {
      title: t("contracts.enabled"),
      dataIndex: "open",
      render: (open: boolean) => <Tag color={open ? "green" : "default"}>{open ? "✓" : "—"}</Tag>,
    },
  ];
  const exposureColumns: TableColumnsType<Exposure> = [
    { title: t("contracts.book"), dataIndex: "book", render: book },
    { title: t("contracts.instrument"), dataIndex: "symbol" },
    { title: t("contracts.count"), dataIndex: "positions", align: "right" },
    { title: t("contracts.longLots"), dataIndex: "long_lots", align: "right" },
    { title: t("contracts.shortLots"), dataIndex: "short_lots", align: "right" },
    { title: t("contracts.margin"), dataIndex: "margin", align: "right", render: amount },
  ];
  const accountColumns: TableColumnsType<HouseAccount> = [
    { title: t("contracts.account"), dataIndex: "account" },
    { title: t("contracts.book"), dataIndex: "book", render: book },
    {
      title: t("contracts.balance"),
      dataIndex: "balance",
      align: "right",
      render: (v: string) => <Amount value={v} signed />,
    },
  ];
  const closeColumns: TableColumnsType<HouseCloses> = [
    { title: t("contracts.type"), dataIndex: "reason", render: (r: string) => t(`contracts.reason_${r}`) },
    { title: t("contracts.book"), dataIndex: "book", render: book },
    { title: t("contracts.count"), dataIndex: "count", align: "right" },
    {
      title: t("contracts.realisedPnl"),
      dataIndex: "user_pnl",
      align: "right",
      render: (v: string) => <Amount value={v} signed />,
    },
    { title: t("contracts.fee"), dataIndex: "fees", align: "right", render: amount },
  ];
  const liquidationColumns: TableColumnsType<Liquidation> = [
    { title: "#", dataIndex: "position_id" },
    { title: t("contracts.user"), dataIndex: "user_id" },
    { title: t("contracts.book"), dataIndex: "book", render: book },
    { title: t("contracts.instrument"), dataIndex: "symbol" },
    { title: t("contracts.lots"), dataIndex: "lots", align: "right" },
    { title: t("contracts.exitPrice"), dataIndex: "price", align: "right", render: amount },
    { title: t("contracts.tick"), dataIndex: "tick_id", align: "right" },
    {
      title: t("contracts.realisedPnl"),
      dataIndex: "pnl",
      align: "right",
      render: (v: string) => <Amount value={v} signed />,
    },
    { title: t("contracts.shortfall"), dataIndex: "shortfall", align: "right", render: amount },
    {
      title: t("contracts.closedAt"),
      dataIndex: "created_at",
      render: (v: string) => <DateTime value={new Date(v)} />,
    },
  ];

  const section = <T extends object>(
    title: string,
    query: { isPending: boolean; isError: boolean; error: unknown; refetch: () => unknown },
    rows: T[] | undefined,
    columns: TableColumnsType<T>,
    rowKey: (row: T) => string,
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
          pagination={rows && rows.length > 20 ? { pageSize: 20, showSizeChanger: false } : false}
          scroll={{ x: "max-content" }}
        />
      )}
    </Card>
  );

  return (
    <AdminPage
      title={t("admin.menu.contracts")}
      extra={<RefreshButton onClick={refetch} loading={exposure.isFetching || liquidations.isFetching} />}
    >
      <Alert type="info" showIcon title={t("contracts.editInPolicy")} />
      {section(t("contracts.adminProducts"), products, products.data, productColumns, (p) => p.symbol)}
      {section(
        t("contracts.adminExposure"),
        exposure,
        exposure.data,
        exposureColumns,
        (r) => `${r.book}|${r.symbol}`,
      )}
      {section(
        t("contracts.adminHouse"),
        house,
        house.data?.accounts,
        accountColumns,
        (r) => `${r.account}|${r.book}`,
      )}
      {section(
        t("contracts.adminHouse"),
        house,
        house.data?.closes,
        closeColumns,
        (r) => `${r.reason}|${r.book}`,
      )}
      {section(t("contracts.adminLiquidations"), liquidations, liquidations.data, liquidationColumns, (r) =>
        String(r.id),
      )}
    </AdminPage>
  );
}
