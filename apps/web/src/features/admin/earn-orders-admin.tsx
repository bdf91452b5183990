import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Button, Flex, Table, type TableColumnsType, Tag } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useTRPC } from "../../lib/trpc.ts";
import { QueryError } from "./admin-page.tsx";
import { ConfirmActionDialog } from "./confirm-action-dialog.tsx";

type Row = {
  id: number;
  orderNo: string;
  userId: number;
  productId: number;
  currency: string;
  amount: string;
  cycleDays: number;
  profit: string;
  paidDays: number;
  remainingDays: number;
  status: string;
  rejectReason: string | null;
};

/** Orders, or with `queue` the early redemptions waiting for review (approve settles, reject keeps custody). */
export function EarnOrdersAdmin({ queue }: { queue?: boolean }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const orders = useQuery(
    trpc.adminEarn.orders.queryOptions(
      { page, page_size: 50, statuses: queue ? ["redeeming"] : undefined },
      { placeholderData: keepPreviousData },
    ),
  );
  const approve = useMutation(trpc.adminEarn.approveRedemption.mutationOptions({ meta: { inline: true } }));
  const reject = useMutation(trpc.adminEarn.rejectRedemption.mutationOptions({ meta: { inline: true } }));
  const [acting, setActing] = useState<{ id: number; kind: "approve" | "reject" } | null>(null);
  const refresh = () => queryClient.invalidateQueries(trpc.adminEarn.pathFilter());

  const columns: TableColumnsType<Row> = [
    { title: t("earn.orderNo"), dataIndex: "orderNo", width: 110 },
    { title: t("earn.admin.user"), dataIndex: "userId", width: 72 },
    { title: t("earn.admin.product"), dataIndex: "productId", width: 72 },
    { title: t("earn.amount"), key: "amount", align: "right", render: (_, o) => `${o.amount} ${o.currency}` },
    { title: t("earn.profit"), dataIndex: "profit", align: "right" },
    { title: t("earn.remainingDays"), dataIndex: "remainingDays", width: 80 },
    {
      title: t("fields.status"),
      dataIndex: "status",
      render: (s: string) => <Tag>{t(`earn.status.${s}`)}</Tag>,
    },
  ];
  if (queue) {
    columns.push({
      title: "",
      key: "actions",
      render: (_, o) => (
        <Flex gap={8}>
          <Button
            size="small"
            type="primary"
            onClick={() => setActing({ id: o.id, kind: "approve" })}
            data-testid={`earn-admin-approve-${o.id}`}
          >
            {t("earn.admin.approve")}
          </Button>
          <Button
            size="small"
            danger
            onClick={() => setActing({ id: o.id, kind: "reject" })}
            data-testid={`earn-admin-reject-${o.id}`}
          >
            {t("earn.admin.reject")}
          </Button>
        </Flex>
      ),
    });
  }
  if (orders.isError) {
    return <QueryError error={orders.error} onRetry={() => void orders.refetch()} />;
  }
  return (
    <>
      <Table<Row>
        rowKey="id"
        size="small"
        loading={orders.isPending}
        dataSource={(orders.data ?? []) as Row[]}
        columns={columns}
        scroll={{ x: 760 }}
        pagination={{
          current: page,
          pageSize: 50,
          total: (page - 1) * 50 + (orders.data?.length ?? 0) + (orders.data?.length === 50 ? 1 : 0),
          onChange: setPage,
          showSizeChanger: false,
        }}
      />
      <ConfirmActionDialog
        open={acting !== null}
        title={acting?.kind === "reject" ? t("earn.admin.reject") : t("earn.admin.approve")}
        description={acting ? `${t("earn.orderNo")} ${acting.id}` : ""}
        okText={acting?.kind === "reject" ? t("earn.admin.reject") : t("earn.admin.approve")}
        danger={acting?.kind === "reject"}
        reasonRequired={acting?.kind === "reject"}
        onSubmit={(reason) =>
          (acting?.kind === "reject"
            ? reject.mutateAsync({ id: acting.id, reason })
            : approve.mutateAsync({ id: acting?.id ?? 0 })
          ).then(refresh)
        }
        onClose={() => setActing(null)}
      />
    </>
  );
}
