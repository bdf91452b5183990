import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Flex, Tag, Typography, theme } from "antd";
import { useTranslation } from "react-i18next";
import { useTRPC } from "../../lib/trpc.ts";
import { useMoneyFormat } from "../assets/assets-format.ts";
import { KeyValue } from "../funding/key-value.tsx";
import { RecordsPage } from "../funding/records-page.tsx";
import { useFormatDateTime } from "../funding/use-format-date-time.ts";
import { ratePercent } from "./earn-rules.ts";
import { EarnTotals } from "./earn-totals.tsx";
import type { EarnOrder } from "./earn-types.ts";
import { RedeemButton } from "./redeem-button.tsx";

const PAGE_SIZE = 20;
const STATUS_COLOR: Record<string, string> = {
  holding: "processing",
  redeeming: "warning",
  redeemed: "default",
  completed: "success",
  redemption_rejected: "error",
};

function useOrders(page: number) {
  const trpc = useTRPC();
  return useQuery(
    trpc.earn.orders.queryOptions({ page, page_size: PAGE_SIZE }, { placeholderData: keepPreviousData }),
  );
}

/** /profit_wdtg, /vip_wdtg, /etf_wdtg, /etflow_wdtg: my custody orders with profit, days left and status. */
export function EarnOrdersPage() {
  const { t } = useTranslation();
  return (
    <>
      <div style={{ maxWidth: 760, margin: "24px auto -8px", padding: "0 16px" }}>
        <EarnTotals />
      </div>
      <RecordsPage
        title={t("earn.myOrders")}
        action={{ label: t("earn.buy"), to: "/profit_index" }}
        emptyText={t("earn.noOrders")}
        listTestId="earn-orders"
        useRecords={useOrders}
        renderRow={(row) => <OrderRow key={row.id} order={row} />}
      />
    </>
  );
}

function OrderRow({ order }: { order: EarnOrder }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const format = useMoneyFormat();
  const formatDateTime = useFormatDateTime();
  const money = (v: string) => `${format.exact(v, 2, 8)} ${order.currency}`;
  const canRedeem = order.status === "holding" || order.status === "redemption_rejected";
  return (
    <Flex
      vertical
      gap={8}
      className="ns-record"
      style={{ paddingBlock: 14 }}
      data-testid="earn-order"
      data-status={order.status}
    >
      <Flex justify="space-between" align="flex-start" gap={12}>
        <Flex vertical gap={2} style={{ minWidth: 0 }}>
          <Typography.Text strong>{order.productName}</Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
            {order.orderNo} · {formatDateTime(order.createdAt)}
          </Typography.Text>
        </Flex>
        <Flex vertical align="flex-end" gap={4} style={{ flex: "none" }}>
          <Typography.Text strong className="ns-num" data-testid="earn-order-amount">
            {money(order.amount)}
          </Typography.Text>
          <Tag
            color={STATUS_COLOR[order.status]}
            variant="filled"
            style={{ marginInlineEnd: 0 }}
            data-testid="earn-order-status"
          >
            {t(`earn.status.${order.status}`)}
          </Tag>
        </Flex>
      </Flex>
      <KeyValue label={t("earn.dailyRate")}>{ratePercent(order.dailyRate)}%</KeyValue>
      <KeyValue label={t("earn.cycle")}>{t("earn.days", { count: order.cycleDays })}</KeyValue>
      <KeyValue label={t("earn.profit")}>
        <span data-testid="earn-order-profit">{money(order.profit)}</span>
      </KeyValue>
      <KeyValue label={t("earn.remainingDays")}>
        <span data-testid="earn-order-days">{order.remainingDays}</span>
      </KeyValue>
      <KeyValue label={t("earn.maturity")}>{order.maturityDay}</KeyValue>
      {order.penalty !== null && <KeyValue label={t("earn.penalty")}>{money(order.penalty)}</KeyValue>}
      {order.rejectReason && (
        <KeyValue label={t("earn.rejectReason")}>
          <Typography.Text type="danger">{order.rejectReason}</Typography.Text>
        </KeyValue>
      )}
      {canRedeem && order.remainingDays > 0 && <RedeemButton order={order} />}
    </Flex>
  );
}
