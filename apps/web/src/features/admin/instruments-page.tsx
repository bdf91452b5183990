import { EditOutlined, PlusOutlined } from "@ant-design/icons";
import {
  INSTRUMENT_CATEGORIES,
  type InstrumentCategory,
  type TRADING_KINDS,
  type TradingHours,
} from "@northstar/shared/markets";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { TableColumnsType } from "antd";
import { Alert, Button, Card, Empty, Flex, Select, Switch, Table, Tag, Typography } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { feedback } from "../../lib/feedback.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { AdminPage, QueryError, RefreshButton } from "./admin-page.tsx";
import { refusalText } from "./admin-query-client.ts";
import type { InstrumentRow } from "./admin-types.ts";
import { PAGE_SIZES, SearchBox, useCatalogueFilters } from "./catalogue-filters.tsx";
import { CategoryTag } from "./category-tag.tsx";
import { ConfirmActionDialog } from "./confirm-action-dialog.tsx";
import { InstrumentEditor } from "./instrument-form.tsx";
import { rowTestId, tableWidth } from "./queue-table.tsx";
import { HoursSummary } from "./trading-hours.tsx";

const KIND_COLOR: Record<(typeof TRADING_KINDS)[number], string> = {
  spot: "green",
  contract: "blue",
  option: "magenta",
};

/**
 * The instrument catalogue (administrators only, as admin.instruments on the server): every
 * instrument, enabled or not, searched, filtered and paged by the server, since the catalogue may
 * hold thousands of rows. Operators add and edit instruments in a drawer validated by the shared
 * schema, and switch them off (a disabled instrument leaves every list and the price feed). The
 * server validates and audits every change.
 */
export function InstrumentsPage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const filters = useCatalogueFilters();
  const { search, category, page, pageSize } = filters;
  const list = useQuery(
    trpc.admin.instruments.queryOptions(
      {
        page,
        page_size: pageSize,
        ...(category ? { category } : {}),
        ...(search ? { search } : {}),
      },
      { placeholderData: keepPreviousData },
    ),
  );
  const setEnabled = useMutation(trpc.admin.setInstrumentEnabled.mutationOptions({ meta: { inline: true } }));
  const [switching, setSwitching] = useState<string | null>(null);
  // The row stays while the dialog closes, so its title does not change as it fades out.
  const [disabling, setDisabling] = useState<{ open: boolean; row: InstrumentRow | null }>({
    open: false,
    row: null,
  });
  const [editor, setEditor] = useState<{ open: boolean; row: InstrumentRow | null }>({
    open: false,
    row: null,
  });
  const total = list.data?.total ?? 0;

  // A page past the end (a shared link, or rows gone since) moves to the last page.
  const lastPage = Math.max(1, Math.ceil(total / pageSize));
  const setFilters = filters.set;
  useEffect(() => {
    if (list.data && !list.isPlaceholderData && page > lastPage) {
      setFilters({ page: lastPage });
    }
  }, [list.data, list.isPlaceholderData, page, lastPage, setFilters]);

  const enable = async (row: InstrumentRow) => {
    setSwitching(row.symbol);
    try {
      await setEnabled.mutateAsync({ symbol: row.symbol, enabled: true });
      feedback.success(t("admin.instruments.enabledDone", { symbol: row.symbol }));
    } catch (e) {
      feedback.warning(refusalText(e));
    } finally {
      setSwitching(null);
      void queryClient.invalidateQueries();
    }
  };

  const columns: TableColumnsType<InstrumentRow> = [
    {
      title: t("admin.instruments.instrument"),
      dataIndex: "symbol",
      width: 190,
      fixed: "left",
      render: (symbol: string, row) => (
        <Flex vertical gap={2} align="flex-start" style={{ minWidth: 0, maxWidth: 170 }}>
          <Flex gap={6} align="center" wrap>
            <Typography.Text strong type={row.enabled ? undefined : "secondary"}>
              {symbol}
            </Typography.Text>
            {!row.enabled && (
              <Tag style={{ marginInlineEnd: 0 }} data-testid={`admin-instrument-off-${row.symbol}`}>
                {t("admin.instruments.off")}
              </Tag>
            )}
          </Flex>
          <Typography.Text
            type="secondary"
            ellipsis={{ tooltip: `${row.name} · ${row.base} / ${row.quote}` }}
            style={{ fontSize: 12, maxWidth: 170 }}
          >
            {row.name} · {row.base}/{row.quote}
          </Typography.Text>
        </Flex>
      ),
    },
    {
      title: t("fields.category"),
      dataIndex: "category",
      width: 100,
      render: (value: InstrumentCategory) => <CategoryTag category={value} />,
    },
    {
      title: t("admin.instruments.tickLot"),
      key: "steps",
      width: 150,
      render: (_, row) => (
        <Flex vertical gap={0} style={{ fontSize: 12, fontVariantNumeric: "tabular-nums" }}>
          <StepLine label={t("admin.instruments.tick")} value={row.tickSize} />
          <StepLine label={t("admin.instruments.lot")} value={row.lotSize} />
          <StepLine label={t("admin.instruments.min")} value={row.minQty} />
        </Flex>
      ),
    },
    {
      title: t("fields.maxLeverage"),
      dataIndex: "maxLeverage",
      width: 100,
      align: "right",
      render: (value: number) => (
        <span style={{ fontVariantNumeric: "tabular-nums" }}>
          {t("admin.instruments.leverage", { value })}
        </span>
      ),
    },
    {
      title: t("fields.kinds"),
      dataIndex: "kinds",
      width: 200,
      render: (kinds: InstrumentRow["kinds"]) =>
        kinds.length === 0 ? (
          <Typography.Text type="secondary">—</Typography.Text>
        ) : (
          <Flex gap={4} wrap>
            {kinds.map((k) => (
              <Tag key={k} color={KIND_COLOR[k]} style={{ marginInlineEnd: 0 }}>
                {t(`admin.instruments.kind.${k}`)}
              </Tag>
            ))}
          </Flex>
        ),
    },
    {
      title: t("fields.tradingHours"),
      dataIndex: "tradingHours",
      width: 200,
      render: (hours: TradingHours) => <HoursSummary hours={hours} />,
    },
    {
      title: t("fields.enabled"),
      dataIndex: "enabled",
      width: 90,
      render: (enabled: boolean, row) => (
        <Switch
          size="small"
          checked={enabled}
          loading={switching === row.symbol}
          aria-label={t("fields.enabled")}
          onChange={(next) => (next ? void enable(row) : setDisabling({ open: true, row }))}
          data-testid={`admin-instrument-enabled-${row.symbol}`}
        />
      ),
    },
    {
      title: t("admin.columns.actions"),
      key: "actions",
      width: 90,
      fixed: "right",
      render: (_, row) => (
        <Button
          size="small"
          icon={<EditOutlined />}
          onClick={() => setEditor({ open: true, row })}
          data-testid={`admin-instrument-edit-${row.symbol}`}
        >
          {t("common.edit")}
        </Button>
      ),
    },
  ];

  const filtered = search !== "" || category !== undefined;

  return (
    <AdminPage
      title={t("admin.instruments.title")}
      extra={
        <>
          <RefreshButton onClick={() => void list.refetch()} loading={list.isFetching} />
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => setEditor({ open: true, row: null })}
            data-testid="admin-instrument-add"
          >
            {t("admin.instruments.add")}
          </Button>
        </>
      }
    >
      <Alert type="info" showIcon title={t("admin.instruments.note")} />
      <Card styles={{ body: { padding: 0 } }}>
        <Flex gap={12} wrap align="center" style={{ padding: 16 }}>
          <SearchBox value={search} onChange={(q) => filters.set({ search: q, page: 1 })} />
          <Select<InstrumentCategory | "all">
            value={category ?? "all"}
            onChange={(value) => filters.set({ category: value === "all" ? undefined : value, page: 1 })}
            style={{ width: 200 }}
            options={[
              { value: "all", label: t("admin.instruments.allCategories") },
              ...INSTRUMENT_CATEGORIES.map((c) => ({
                value: c,
                label: t(`admin.instruments.category.${c}`),
              })),
            ]}
            aria-label={t("fields.category")}
            data-testid="admin-instrument-category"
          />
        </Flex>
        {list.isError ? (
          <QueryError error={list.error} onRetry={() => void list.refetch()} />
        ) : (
          <Table<InstrumentRow>
            rowKey="symbol"
            size="middle"
            columns={columns}
            dataSource={list.data?.items}
            loading={list.isFetching}
            scroll={{ x: tableWidth(columns) }}
            pagination={{
              current: page,
              pageSize,
              total,
              showSizeChanger: true,
              pageSizeOptions: PAGE_SIZES,
              showTotal: (count: number) => t("admin.table.total", { count }),
              style: { marginInline: 16 },
              onChange: (nextPage, nextSize) =>
                filters.set(nextSize === pageSize ? { page: nextPage } : { page: 1, pageSize: nextSize }),
            }}
            onRow={(r) => rowTestId(`admin-instrument-row-${r.symbol}`)}
            locale={{
              emptyText: list.isPending ? (
                " "
              ) : (
                <Empty
                  image={Empty.PRESENTED_IMAGE_SIMPLE}
                  description={filtered ? t("admin.instruments.noMatch") : t("admin.instruments.empty")}
                >
                  {filtered && (
                    <Button onClick={() => filters.set({ search: "", category: undefined, page: 1 })}>
                      {t("admin.instruments.clearFilters")}
                    </Button>
                  )}
                </Empty>
              ),
            }}
            data-testid="admin-instruments-table"
          />
        )}
      </Card>
      <ConfirmActionDialog
        open={disabling.open}
        danger
        title={t("admin.instruments.disableTitle", { symbol: disabling.row?.symbol ?? "" })}
        description={t("admin.instruments.disableBody", { symbol: disabling.row?.symbol ?? "" })}
        okText={t("admin.instruments.disable")}
        onClose={() => setDisabling((d) => ({ ...d, open: false }))}
        onSubmit={async () => {
          const symbol = disabling.row?.symbol;
          if (!symbol) {
            return;
          }
          try {
            await setEnabled.mutateAsync({ symbol, enabled: false });
            feedback.success(t("admin.instruments.disabledDone", { symbol }));
          } finally {
            void queryClient.invalidateQueries();
          }
        }}
      />
      <InstrumentEditor
        open={editor.open}
        row={editor.row}
        onClose={() => setEditor((e) => ({ ...e, open: false }))}
        afterClose={() => setEditor({ open: false, row: null })}
      />
    </AdminPage>
  );
}

function StepLine({ label, value }: { label: string; value: string }) {
  return (
    <Flex gap={6} style={{ whiteSpace: "nowrap" }}>
      <Typography.Text type="secondary" style={{ fontSize: 12, minWidth: 34 }}>
        {label}
      </Typography.Text>
      <span>{value}</span>
    </Flex>
  );
}
