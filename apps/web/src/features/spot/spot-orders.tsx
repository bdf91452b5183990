import {
  Button,
  Flex,
  Grid,
  Pagination,
  Popconfirm,
  Table,
  type TableColumnsType,
  Typography,
  theme,
} from "antd";
import { type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { feedback } from "../../lib/feedback.ts";
import { Stat } from "../assets/stat.tsx";
import { EmptyState, ErrorState, LoadingState } from "../common/page-states.tsx";
import {
  isOpenOrder,
  type OrderScope,
  SPOT_PAGE_SIZE,
  type SpotOrder,
  useCancelOrder,
  useSpotOrders,
} from "./spot-data.ts";
import { numberColumn, OrderStatusTag, SideText, useSpotFormat } from "./spot-ui.tsx";
import "./spot.css";

/**
 * One page of the user's orders (open or finished) of one market or of all, as a table on wide
 * screens and as cards on narrow ones, with the pager under it. Open orders can be cancelled.
 */
export function OrderList({
  scope,
  symbol,
  page,
  onPage,
  showPair,
  emptyText,
}: {
  scope: OrderScope;
  symbol?: string | undefined;
  page: number;
  onPage: (page: number) => void;
  /** a column for the market: on the records page, which lists every market */
  showPair: boolean;
  emptyText: ReactNode;
}) {
  const orders = useSpotOrders({ scope, symbol, page });
  if (orders.isPending) {
    return <LoadingState rows={4} />;
  }
  if (orders.isError) {
    return <ErrorState onRetry={() => void orders.refetch()} />;
  }
  const { items, total } = orders.data;
  if (items.length === 0 && page === 1) {
    return (
      <div style={{ paddingBlock: 16 }} data-testid={`orders-${scope}-empty`}>
        <EmptyState>{emptyText}</EmptyState>
      </div>
    );
  }
  return (
    <Flex
      vertical
      gap={12}
      style={{ opacity: orders.isPlaceholderData ? 0.6 : 1, transition: "opacity .2s" }}
      data-testid={`orders-${scope}`}
    >
      <OrderRows orders={items} showPair={showPair} cancellable={scope === "open"} />
      <ListPager page={page} total={total} onPage={onPage} />
    </Flex>
  );
}

/** The pager of the order and fill lists; nothing when everything fits on one page. */
export function ListPager({
  page,
  total,
  onPage,
}: {
  page: number;
  total: number;
  onPage: (page: number) => void;
}) {
  if (total <= SPOT_PAGE_SIZE && page === 1) {
    return null;
  }
  return (
    <Flex justify="flex-end">
      <Pagination
        size="small"
        current={page}
        total={total}
        pageSize={SPOT_PAGE_SIZE}
        showSizeChanger={false}
        onChange={onPage}
        data-testid="orders-pager"
      />
    </Flex>
  );
}

function OrderRows({
  orders,
  showPair,
  cancellable,
}: {
  orders: SpotOrder[];
  showPair: boolean;
  cancellable: boolean;
}) {
  const { t } = useTranslation();
  const screens = Grid.useBreakpoint();
  const format = useSpotFormat();
  const cancel = useCancelOrder();
  // Orders whose cancel was accepted: the matcher applies it a moment later, and an event follows.
  const [cancelling, setCancelling] = useState<ReadonlySet<number>>(new Set());

  const doCancel = (order: SpotOrder) =>
    cancel
      .mutateAsync({ id: order.id })
      .then(() => {
        setCancelling((s) => new Set(s).add(order.id));
        feedback.success(t("spot.orders.cancelSent"));
      })
      // The refusal (already finished, not found) is shown by the client rules.
      .catch(() => undefined);

  const action = (order: SpotOrder) =>
    isOpenOrder(order) ? (
      <CancelButton
        busy={cancelling.has(order.id) || (cancel.isPending && cancel.variables?.id === order.id)}
        onConfirm={() => doCancel(order)}
      />
    ) : null;

  const price = (o: SpotOrder) => (o.type === "market" ? t("spot.form.market") : format.amount(o.price));
  const quantity = (o: SpotOrder) =>
    o.quantity !== null
      ? `${format.amount(o.quantity)} ${o.base}`
      : t("spot.orders.byTotal", { amount: `${format.amount(o.quote_amount)} ${o.quote}` });

  if (!screens.lg) {
    return (
      <div>
        {orders.map((o) => (
          <Flex
            key={o.id}
            vertical
            gap={8}
            className="ns-spot-card"
            data-testid="order-row"
            data-order-id={o.id}
          >
            <Flex justify="space-between" align="center" gap={8}>
              <Flex align="center" gap={8} wrap>
                <SideText side={o.side} />
                <Typography.Text strong>{`${o.base}/${o.quote}`}</Typography.Text>
                <Typography.Text type="secondary">{t(`spot.form.${o.type}`)}</Typography.Text>
              </Flex>
              <OrderStatusTag order={o} />
            </Flex>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {format.time(o.created_at)}
            </Typography.Text>
            <div className="ns-spot-card-grid">
              <Stat label={t("spot.orders.price")} align="start">
                <span className="ns-num">{price(o)}</span>
              </Stat>
              <Stat label={t("spot.orders.dealPrice")}>
                <span className="ns-num">{format.amount(o.avg_price)}</span>
              </Stat>
              <Stat label={t("spot.orders.quantity")} align="start">
                <span className="ns-num">{quantity(o)}</span>
              </Stat>
              <Stat label={t("spot.orders.filled")}>
                <span className="ns-num" data-testid="order-filled">
                  {format.amount(o.filled_qty)}
                </span>
              </Stat>
              <Stat label={t("spot.orders.fee")} align="start">
                <span className="ns-num" data-testid="order-fee">
                  {`${format.amount(o.fee)} ${o.fee_currency}`}
                </span>
              </Stat>
              <Flex justify="flex-end" align="flex-end">
                {action(o)}
              </Flex>
            </div>
          </Flex>
        ))}
      </div>
    );
  }

  const columns: TableColumnsType<SpotOrder> = [
    {
      key: "time",
      title: t("spot.orders.time"),
      render: (_, o) => <span className="ns-num">{format.time(o.created_at)}</span>,
    },
    ...(showPair
      ? [
          {
            key: "pair",
            title: t("spot.orders.pair"),
            render: (_: unknown, o: SpotOrder) => (
              <Typography.Text strong>{`${o.base}/${o.quote}`}</Typography.Text>
            ),
          },
        ]
      : []),
    { key: "side", title: t("spot.orders.side"), render: (_, o) => <SideText side={o.side} /> },
    { key: "type", title: t("spot.orders.type"), render: (_, o) => t(`spot.form.${o.type}`) },
    numberColumn<SpotOrder>("price", t("spot.orders.price"), (o) => price(o)),
    numberColumn<SpotOrder>("deal", t("spot.orders.dealPrice"), (o) => format.amount(o.avg_price)),
    numberColumn<SpotOrder>("quantity", t("spot.orders.quantity"), (o) => quantity(o)),
    numberColumn<SpotOrder>(
      "filled",
      t("spot.orders.filled"),
      (o) => format.amount(o.filled_qty),
      "order-filled",
    ),
    numberColumn<SpotOrder>(
      "fee",
      t("spot.orders.fee"),
      (o) => `${format.amount(o.fee)} ${o.fee_currency}`,
      "order-fee",
    ),
    { key: "status", title: t("spot.orders.status"), render: (_, o) => <OrderStatusTag order={o} /> },
    ...(cancellable
      ? [{ key: "action", title: "", align: "end" as const, render: (_: unknown, o: SpotOrder) => action(o) }]
      : []),
  ];
  return (
    <Table<SpotOrder>
      rowKey="id"
      size="small"
      columns={columns}
      dataSource={orders}
      pagination={false}
      scroll={{ x: "max-content" }}
      onRow={(o) =>
        ({ "data-testid": "order-row", "data-order-id": o.id }) as React.HTMLAttributes<HTMLElement>
      }
    />
  );
}

/** Cancel, after a confirmation; "Cancelling" once the request is in and until the order closes. */
function CancelButton({ busy, onConfirm }: { busy: boolean; onConfirm: () => Promise<unknown> }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  return (
    <Popconfirm
      title={t("spot.orders.cancelTitle")}
      description={
        <div style={{ maxWidth: 260, color: token.colorTextSecondary }}>{t("spot.orders.cancelText")}</div>
      }
      okText={t("spot.orders.cancelOk")}
      cancelText={t("spot.orders.keep")}
      okButtonProps={{ danger: true, "data-testid": "order-cancel-confirm" }}
      onConfirm={onConfirm}
      disabled={busy}
    >
      <Button size="small" danger loading={busy} data-testid="order-cancel">
        {busy ? t("spot.orders.cancelling") : t("spot.orders.cancel")}
      </Button>
    </Popconfirm>
  );
}
