import type { TOrderSide } from "@northstar/shared/contracts/spot";
import { LANGUAGE_INFO } from "@northstar/shared/languages";
import { money } from "@northstar/shared/money";
import { type TableColumnType, Tag, theme } from "antd";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { useLanguage } from "../../lib/session.ts";
import { useMoneyFormat } from "../assets/assets-format.ts";
import type { SpotOrder } from "./spot-data.ts";

/**
 * How an order's state reads (SPEC: unfilled, filled, cancelled): waiting and resting orders are
 * "Unfilled"; a cancelled order that traded part of its quantity says so.
 */
export function orderStatusKey(order: Pick<SpotOrder, "status" | "filled_qty">): string {
  switch (order.status) {
    case "pending":
    case "open":
      return "unfilled";
    case "partial":
      return "partial";
    case "filled":
      return "filled";
    case "cancelled":
      return money(order.filled_qty || "0").isZero() ? "cancelled" : "partialCancelled";
    default:
      return "rejected";
  }
}

const STATUS_COLOR: Record<string, string> = {
  unfilled: "processing",
  partial: "gold",
  filled: "success",
  cancelled: "default",
  partialCancelled: "default",
  rejected: "error",
};

export function OrderStatusTag({ order }: { order: Pick<SpotOrder, "status" | "filled_qty"> }) {
  const { t } = useTranslation();
  const key = orderStatusKey(order);
  return (
    <Tag
      color={STATUS_COLOR[key]}
      variant="filled"
      style={{ marginInlineEnd: 0 }}
      data-testid="order-status"
      data-status={order.status}
    >
      {t(`spot.status.${key}`)}
    </Tag>
  );
}

/** "Buy" in green, "Sell" in red (the theme's success and error colours). */
export function SideText({ side }: { side: TOrderSide }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  return (
    <span
      style={{ color: side === "buy" ? token.colorSuccess : token.colorError, fontWeight: 500 }}
      data-testid="order-side"
    >
      {t(`spot.form.${side}`)}
    </span>
  );
}

/**
 * Figures of orders and fills in the interface language: the exact stored values (trailing zeros
 * dropped), and the time to the second.
 */
export function useSpotFormat() {
  const lang = useLanguage();
  const money = useMoneyFormat();
  return useMemo(() => {
    const when = new Intl.DateTimeFormat(LANGUAGE_INFO[lang].bcp47, {
      dateStyle: "short",
      timeStyle: "medium",
      hourCycle: "h23",
    });
    return {
      /** a price or amount as stored, at least `min` decimals */
      amount: (value: string | null | undefined, min = 0) =>
        value === null || value === undefined || value === "" ? "—" : money.exact(value, min, 10),
      time: (value: string) => when.format(new Date(value)),
    };
  }, [lang, money]);
}

/** A right-aligned number column of the order and fill tables. */
export function numberColumn<T>(
  key: string,
  title: string,
  value: (row: T) => string,
  testId?: string,
): TableColumnType<T> {
  return {
    key,
    title,
    align: "end",
    render: (_, row) => (
      <span className="ns-num" data-testid={testId}>
        {value(row)}
      </span>
    ),
  };
}
