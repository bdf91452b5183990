import { useQuery } from "@tanstack/react-query";
import { Alert, Button, Divider, Flex, Typography } from "antd";
import { useCallback } from "react";
import { useTranslation } from "react-i18next";
import { useAppNavigate } from "../../lib/navigation.tsx";
import { useTRPC } from "../../lib/trpc.ts";
import { useMoneyFormat } from "../assets/assets-format.ts";
import { ErrorState, LoadingState } from "../common/page-states.tsx";
import { KeyValue } from "../funding/key-value.tsx";
import { useFormatDateTime } from "../funding/use-format-date-time.ts";
import { CancelOrderButton } from "./cancel-order-button.tsx";
import { Countdown } from "./countdown.tsx";
import { OrderStatusTag } from "./order-status-tag.tsx";
import { PayeeDetails } from "./payee-details.tsx";

/** Coins as the order stores them (already in the coin's decimals), shown whole. */
const STORED_DECIMALS = 18;

const LIVE = new Set(["unmatched", "matched", "paid"]);

/**
 * One order: amounts at the locked price, the payee to wire to with the countdown to the deadline
 * while no proof is in, then the proof step; the outcome (completed, rejected with its reason,
 * expired) once decided. An open order is polled, so a decision or the expiry shows by itself.
 */
export function OrderDetail({ orderId }: { orderId: number }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const go = useAppNavigate();
  const format = useMoneyFormat();
  const formatDateTime = useFormatDateTime();
  const order = useQuery({
    ...trpc.c2c.order.queryOptions({ order_id: orderId }),
    refetchInterval: (q) => (q.state.data && LIVE.has(q.state.data.status) ? 5000 : false),
  });
  const refetch = order.refetch;
  const onElapsed = useCallback(() => void refetch(), [refetch]);
  if (order.isPending) {
    return <LoadingState rows={6} />;
  }
  if (order.isError) {
    return <ErrorState message={order.error.message} onRetry={() => void order.refetch()} />;
  }
  const o = order.data;
  return (
    <div data-testid="c2c-order" data-status={o.status}>
      <Flex justify="space-between" align="center" gap={8} wrap style={{ marginBottom: 8 }}>
        <Typography.Text type="secondary">{t("c2c.orderNo", { id: o.id })}</Typography.Text>
        <OrderStatusTag status={o.status} />
      </Flex>
      <KeyValue label={t("c2c.merchant")}>{o.merchantName}</KeyValue>
      <KeyValue label={t("c2c.price")}>{`1 ${o.coin} = ${format.exact(o.price, 2, 8)} ${o.fiat}`}</KeyValue>
      <KeyValue label={t("c2c.youPay")}>
        <strong data-testid="c2c-order-fiat">{`${format.exact(o.fiatAmount, 2, 2)} ${o.fiat}`}</strong>
      </KeyValue>
      <KeyValue label={t("c2c.youGet")}>
        <span data-testid="c2c-order-coin">{`${format.exact(o.coinAmount, 0, STORED_DECIMALS)} ${o.coin}`}</span>
      </KeyValue>
      <KeyValue label={t("c2c.createdAt")}>{formatDateTime(o.createdAt)}</KeyValue>
      {o.status === "unmatched" && (
        <Alert type="info" showIcon message={t("c2c.unmatchedHint")} style={{ marginTop: 12 }} />
      )}
      {o.clockRunning && (
        <Flex vertical align="center" gap={4} style={{ margin: "16px 0" }}>
          <Typography.Text type="secondary">{t("c2c.timeLeft")}</Typography.Text>
          <Countdown deadline={o.expiresAt} onElapsed={onElapsed} />
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t("c2c.deadline", { time: formatDateTime(o.expiresAt) })}
          </Typography.Text>
        </Flex>
      )}
      {o.payee && o.status !== "completed" && o.status !== "expired" && o.status !== "rejected" && (
        <>
          <Divider plain>{t("c2c.payTo")}</Divider>
          <PayeeDetails payee={o.payee} />
          <Alert
            type="warning"
            showIcon
            message={t("c2c.wireHint", { amount: `${format.exact(o.fiatAmount, 2, 2)} ${o.fiat}` })}
            style={{ marginTop: 12 }}
          />
        </>
      )}
      {o.status === "matched" && (
        <Button
          type="primary"
          block
          style={{ marginTop: 16 }}
          onClick={() => go(`/c2c_submit?id=${o.id}`)}
          data-testid="c2c-go-submit"
        >
          {t("c2c.submitProof")}
        </Button>
      )}
      {(o.status === "unmatched" || o.status === "matched") && <CancelOrderButton orderId={o.id} />}
      {o.status === "paid" && (
        <Alert type="info" showIcon message={t("c2c.paidHint")} style={{ marginTop: 12 }} />
      )}
      {o.status === "completed" && (
        <Alert
          type="success"
          showIcon
          message={t("c2c.completedHint", {
            amount: `${format.exact(o.coinAmount, 0, STORED_DECIMALS)} ${o.coin}`,
          })}
          style={{ marginTop: 12 }}
        />
      )}
      {o.status === "rejected" && (
        <Alert
          type="error"
          showIcon
          message={t("c2c.rejectedHint")}
          description={<span data-testid="c2c-reject-reason">{o.rejectReason}</span>}
          style={{ marginTop: 12 }}
        />
      )}
      {o.status === "expired" && (
        <Alert
          type="warning"
          showIcon
          message={t("errors.C2C_ORDER_EXPIRED")}
          style={{ marginTop: 12 }}
          data-testid="c2c-expired"
        />
      )}
    </div>
  );
}
