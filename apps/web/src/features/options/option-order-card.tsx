import type { TOptionOrderView } from "@northstar/shared/contracts/options";
import { useQueryClient } from "@tanstack/react-query";
import { Card, Descriptions, Flex, Tag, Typography, theme } from "antd";
import dayjs from "dayjs";
import { useTranslation } from "react-i18next";
import { useTRPC } from "../../lib/trpc.ts";
import { NUMERIC_STYLE, useMoneyFormat } from "../assets/assets-format.ts";
import { PriceSource } from "../markets/price-source.tsx";
import { countdown, periodParts } from "./option-period.ts";

const STATUS_COLOR = {
  open: "processing",
  won: "success",
  lost: "error",
  tied: "default",
  void: "warning",
} as const;

/**
 * One options order: pair, direction, amount, fee, purchase price and time, expiry; once settled the
 * settlement price, delivery time and profit; while open, the time left (`now` ticks each second).
 */
export function OptionOrderCard({ order, now }: { order: TOptionOrderView; now?: number }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const format = useMoneyFormat();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const period = periodParts(order.period_seconds);
  const time = (iso: string | null) => (iso ? dayjs(iso).format("YYYY-MM-DD HH:mm:ss") : "—");
  const profitColor =
    order.profit === null
      ? undefined
      : order.profit.startsWith("-")
        ? token.colorError
        : /[1-9]/.test(order.profit)
          ? token.colorSuccess
          : undefined;
  const expired = now !== undefined && new Date(order.expires_at).getTime() <= now;
  return (
    <Card size="small" data-testid={`option-order-${order.id}`} data-status={order.status}>
      <Flex justify="space-between" align="center" wrap gap={8} style={{ marginBottom: 8 }}>
        <Flex gap={8} align="center" wrap>
          <Typography.Text strong>{order.symbol}</Typography.Text>
          <Tag color={order.direction === "up" ? "success" : "error"}>{t(`options.${order.direction}`)}</Tag>
          <Typography.Text type="secondary">{t(`options.${period.unit}`, { n: period.n })}</Typography.Text>
        </Flex>
        {order.status === "open" ? (
          <Typography.Text strong style={NUMERIC_STYLE} data-testid="option-countdown">
            {now === undefined
              ? null
              : expired
                ? t("options.settling")
                : countdown(order.expires_at, now, order.period_seconds)}
          </Typography.Text>
        ) : (
          <Tag color={STATUS_COLOR[order.status]} data-testid="option-status">
            {t(`options.${order.status}`)}
          </Tag>
        )}
      </Flex>
      <Descriptions
        size="small"
        column={{ xs: 1, sm: 2 }}
        items={[
          { key: "amount", label: t("options.amount"), children: format.exact(order.amount, 0, 8) },
          { key: "fee", label: t("options.fee"), children: format.exact(order.fee, 0, 8) },
          {
            key: "purchasePrice",
            label: t("options.purchasePrice"),
            children: <span data-testid="option-purchase-price">{format.price(order.purchase_price)}</span>,
          },
          {
            key: "settlementPrice",
            label: t("options.settlementPrice"),
            children: (
              <span data-testid="option-settlement-price">
                {order.settlement_price === null ? "—" : format.price(order.settlement_price)}
                {order.settlement_tick_id !== null && !order.settlement_source && (
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {" "}
                    {t("options.settlementTick", {
                      id: order.settlement_tick_id,
                      time: order.settlement_tick_time
                        ? dayjs(order.settlement_tick_time).format("HH:mm:ss.SSS")
                        : "—",
                    })}
                  </Typography.Text>
                )}
              </span>
            ),
          },
          { key: "purchaseTime", label: t("options.purchaseTime"), children: time(order.purchased_at) },
          { key: "expiryTime", label: t("options.expiryTime"), children: time(order.expires_at) },
          { key: "deliveryTime", label: t("options.deliveryTime"), children: time(order.settled_at) },
          {
            key: "profit",
            label: t("options.profit"),
            children: (
              <Typography.Text style={{ ...NUMERIC_STYLE, color: profitColor }} data-testid="option-profit">
                {order.profit === null ? "—" : `${format.signed(order.profit, 0, 8)} USDT`}
              </Typography.Text>
            ),
          },
        ]}
      />
      {order.settlement_source && (
        <PriceSource
          source={order.settlement_source}
          fileName={`option-${order.id}-ticks.csv`}
          loadTicks={() =>
            queryClient.fetchQuery({ ...trpc.options.ticks.queryOptions({ id: order.id }), staleTime: 0 })
          }
        />
      )}
      {order.status === "void" && (
        <Typography.Text type="secondary" data-testid="option-void-note">
          {t("options.voidNote")}
        </Typography.Text>
      )}
    </Card>
  );
}
