import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Card, Flex, Pagination, Segmented, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useAppNavigate } from "../../lib/navigation.tsx";
import { useTRPC } from "../../lib/trpc.ts";
import { useMoneyFormat } from "../assets/assets-format.ts";
import { EmptyState, ErrorState, LoadingState } from "../common/page-states.tsx";
import { useFormatDateTime } from "../funding/use-format-date-time.ts";
import { OrderStatusTag } from "./order-status-tag.tsx";

/** Coins as the order stores them (already in the coin's decimals), shown whole. */
const STORED_DECIMALS = 18;

const PAGE_SIZE = 10;

/** My orders, newest first: open ones or the history; each opens its detail. */
export function OrderList() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const go = useAppNavigate();
  const format = useMoneyFormat();
  const formatDateTime = useFormatDateTime();
  const [scope, setScope] = useState<"open" | "history">("open");
  const [page, setPage] = useState(1);
  const orders = useQuery(
    trpc.c2c.orders.queryOptions(
      { scope, page, page_size: PAGE_SIZE },
      { placeholderData: keepPreviousData },
    ),
  );
  return (
    <Flex vertical gap={12}>
      <Segmented
        block
        value={scope}
        onChange={(v) => {
          setScope(v as "open" | "history");
          setPage(1);
        }}
        options={[
          { value: "open", label: t("c2c.openOrders") },
          { value: "history", label: t("c2c.history") },
        ]}
      />
      {orders.isPending ? (
        <LoadingState rows={4} />
      ) : orders.isError ? (
        <ErrorState onRetry={() => void orders.refetch()} />
      ) : orders.data.list.length === 0 ? (
        <EmptyState>{t("c2c.noOrders")}</EmptyState>
      ) : (
        <>
          {orders.data.list.map((o) => (
            <Card
              key={o.id}
              size="small"
              hoverable
              onClick={() => go(`/c2c_order?id=${o.id}`)}
              data-testid="c2c-order-row"
              data-status={o.status}
            >
              <Flex justify="space-between" align="center" gap={8}>
                <Typography.Text
                  strong
                >{`${format.exact(o.coinAmount, 0, STORED_DECIMALS)} ${o.coin}`}</Typography.Text>
                <OrderStatusTag status={o.status} />
              </Flex>
              <Flex justify="space-between" gap={8}>
                <Typography.Text type="secondary">{`${format.exact(o.fiatAmount, 2, 2)} ${o.fiat} · ${o.merchantName}`}</Typography.Text>
                <Typography.Text type="secondary">{formatDateTime(o.createdAt)}</Typography.Text>
              </Flex>
            </Card>
          ))}
          {orders.data.total > PAGE_SIZE && (
            <Pagination
              align="center"
              current={page}
              pageSize={PAGE_SIZE}
              total={orders.data.total}
              onChange={setPage}
            />
          )}
        </>
      )}
    </Flex>
  );
}
