import { useQuery } from "@tanstack/react-query";
import { Card, Flex, Skeleton, Statistic } from "antd";
import { useTranslation } from "react-i18next";
import { useTRPC } from "../../lib/trpc.ts";
import { useMoneyFormat } from "../assets/assets-format.ts";

/** The user's custody totals: principal in custody, profit earned, today's profit, orders. */
export function EarnTotals() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const format = useMoneyFormat();
  const totals = useQuery(trpc.earn.totals.queryOptions());
  if (totals.isPending || totals.isError) {
    return (
      <Card size="small" style={{ marginBottom: 16 }}>
        <Skeleton active paragraph={{ rows: 1 }} title={false} />
      </Card>
    );
  }
  const items = [
    { key: "principal", label: t("earn.principal"), value: format.amount(totals.data.principal, 2) },
    { key: "profit", label: t("earn.profit"), value: format.amount(totals.data.profit, 2) },
    { key: "today", label: t("earn.todayProfit"), value: format.amount(totals.data.todayProfit, 2) },
    { key: "orders", label: t("earn.orders"), value: String(totals.data.orders) },
  ];
  return (
    <Card size="small" style={{ marginBottom: 16 }} data-testid="earn-totals">
      <Flex wrap gap={16} justify="space-between">
        {items.map((i) => (
          <Statistic
            key={i.key}
            title={i.label}
            value={i.value}
            valueStyle={{ fontSize: 18, fontVariantNumeric: "tabular-nums" }}
            data-testid={`earn-total-${i.key}`}
          />
        ))}
      </Flex>
    </Card>
  );
}
