import { Flex, Grid, Table, type TableColumnsType, Typography } from "antd";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { Stat } from "../assets/stat.tsx";
import { EmptyState, ErrorState, LoadingState } from "../common/page-states.tsx";
import { pairName } from "../markets/market-data.ts";
import { type SpotFill, useSpotFills, useSpotMarkets } from "./spot-data.ts";
import { ListPager } from "./spot-orders.tsx";
import { numberColumn, SideText, useSpotFormat } from "./spot-ui.tsx";

/** "BTC/USDT" for a fill's symbol, from the spot markets (a fill carries only the symbol). */
function usePairNames(): (symbol: string) => string {
  const markets = useSpotMarkets();
  const items = markets.data?.items;
  return useMemo(() => {
    const names = new Map((items ?? []).map((row) => [row.symbol, pairName(row)]));
    return (symbol: string) => names.get(symbol) ?? symbol;
  }, [items]);
}

/** One page of the user's fills (each trade of each order), newest first. */
export function FillList({
  symbol,
  page,
  onPage,
}: {
  symbol?: string | undefined;
  page: number;
  onPage: (page: number) => void;
}) {
  const { t } = useTranslation();
  const screens = Grid.useBreakpoint();
  const format = useSpotFormat();
  const fills = useSpotFills({ symbol, page });
  const pairOf = usePairNames();

  if (fills.isPending) {
    return <LoadingState rows={4} />;
  }
  if (fills.isError) {
    return <ErrorState onRetry={() => void fills.refetch()} />;
  }
  const { items, total } = fills.data;
  if (items.length === 0 && page === 1) {
    return (
      <div style={{ paddingBlock: 16 }} data-testid="fills-empty">
        <EmptyState>{t("spot.orders.emptyFills")}</EmptyState>
      </div>
    );
  }

  let body: React.ReactNode;
  if (screens.lg) {
    const columns: TableColumnsType<SpotFill> = [
      {
        key: "time",
        title: t("spot.orders.time"),
        render: (_, f) => <span className="ns-num">{format.time(f.created_at)}</span>,
      },
      {
        key: "pair",
        title: t("spot.orders.pair"),
        render: (_, f) => <Typography.Text strong>{pairOf(f.symbol)}</Typography.Text>,
      },
      { key: "side", title: t("spot.orders.side"), render: (_, f) => <SideText side={f.side} /> },
      { key: "role", title: t("spot.orders.role"), render: (_, f) => t(`spot.role.${f.role}`) },
      numberColumn<SpotFill>("price", t("spot.orders.dealPrice"), (f) => format.amount(f.price)),
      numberColumn<SpotFill>(
        "quantity",
        t("spot.orders.quantity"),
        (f) => format.amount(f.quantity),
        "fill-quantity",
      ),
      numberColumn<SpotFill>("total", t("spot.orders.total"), (f) => format.amount(f.quote_qty)),
      numberColumn<SpotFill>(
        "fee",
        t("spot.orders.fee"),
        (f) => `${format.amount(f.fee)} ${f.fee_currency}`,
        "fill-fee",
      ),
    ];
    body = (
      <Table<SpotFill>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={items}
        pagination={false}
        scroll={{ x: "max-content" }}
        onRow={() => ({ "data-testid": "fill-row" }) as React.HTMLAttributes<HTMLElement>}
      />
    );
  } else {
    body = (
      <div>
        {items.map((f) => (
          <Flex key={f.id} vertical gap={8} className="ns-spot-card" data-testid="fill-row">
            <Flex justify="space-between" align="center" gap={8}>
              <Flex align="center" gap={8}>
                <SideText side={f.side} />
                <Typography.Text strong>{pairOf(f.symbol)}</Typography.Text>
                <Typography.Text type="secondary">{t(`spot.role.${f.role}`)}</Typography.Text>
              </Flex>
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {format.time(f.created_at)}
              </Typography.Text>
            </Flex>
            <div className="ns-spot-card-grid">
              <Stat label={t("spot.orders.dealPrice")} align="start">
                <span className="ns-num">{format.amount(f.price)}</span>
              </Stat>
              <Stat label={t("spot.orders.quantity")}>
                <span className="ns-num" data-testid="fill-quantity">
                  {format.amount(f.quantity)}
                </span>
              </Stat>
              <Stat label={t("spot.orders.total")} align="start">
                <span className="ns-num">{format.amount(f.quote_qty)}</span>
              </Stat>
              <Stat label={t("spot.orders.fee")}>
                <span
                  className="ns-num"
                  data-testid="fill-fee"
                >{`${format.amount(f.fee)} ${f.fee_currency}`}</span>
              </Stat>
            </div>
          </Flex>
        ))}
      </div>
    );
  }
  return (
    <Flex
      vertical
      gap={12}
      style={{ opacity: fills.isPlaceholderData ? 0.6 : 1, transition: "opacity .2s" }}
      data-testid="fills"
    >
      {body}
      <ListPager page={page} total={total} onPage={onPage} />
    </Flex>
  );
}
