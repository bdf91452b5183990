import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Button, Flex, Table, type TableColumnsType } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useTRPC } from "../../lib/trpc.ts";
import type { C2cAdminOrder } from "../c2c/c2c-types.ts";
import { OrderStatusTag } from "../c2c/order-status-tag.tsx";
import { QueryError } from "./admin-page.tsx";
import { ConfirmActionDialog } from "./confirm-action-dialog.tsx";
import { ProofImage } from "./proof-image.tsx";

type Status = "unmatched" | "matched" | "paid" | "completed" | "expired" | "rejected" | "cancelled";
type Acting = { order: C2cAdminOrder; kind: "confirm" | "reject" | "match" };

/** Orders with the payment proof; a paid one is confirmed (coins to the user) or rejected with a reason. */
export function C2cOrdersAdmin({ status }: { status?: Status }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const orders = useQuery(
    trpc.c2cAdmin.orders.queryOptions({ status, page, page_size: 20 }, { placeholderData: keepPreviousData }),
  );
  const confirm = useMutation(trpc.c2cAdmin.confirm.mutationOptions({ meta: { inline: true } }));
  const reject = useMutation(trpc.c2cAdmin.reject.mutationOptions({ meta: { inline: true } }));
  const match = useMutation(trpc.c2cAdmin.match.mutationOptions({ meta: { inline: true } }));
  const [acting, setActing] = useState<Acting | null>(null);
  const refresh = () => queryClient.invalidateQueries(trpc.c2cAdmin.pathFilter());

  const columns: TableColumnsType<C2cAdminOrder> = [
    { title: "ID", dataIndex: "id", width: 64 },
    { title: t("c2c.admin.user"), dataIndex: "userId", width: 80 },
    { title: t("c2c.merchant"), dataIndex: "merchantName" },
    { title: t("c2c.youPay"), key: "fiat", align: "right", render: (_, o) => `${o.fiatAmount} ${o.fiat}` },
    { title: t("c2c.youGet"), key: "coin", align: "right", render: (_, o) => `${o.coinAmount} ${o.coin}` },
    { title: t("c2c.price"), dataIndex: "price", align: "right" },
    { title: t("fields.proof"), key: "proof", render: (_, o) => <ProofImage id={o.proofUploadId} /> },
    { title: t("fields.note"), dataIndex: "proofNote" },
    {
      title: t("c2c.deadlineShort"),
      dataIndex: "expiresAt",
      render: (v: string) => new Date(v).toISOString(),
    },
    { title: "", dataIndex: "status", render: (s: string) => <OrderStatusTag status={s} /> },
    {
      title: "",
      key: "actions",
      render: (_, o) => (
        <Flex gap={8}>
          {o.status === "paid" && (
            <Button
              size="small"
              type="primary"
              onClick={() => setActing({ order: o, kind: "confirm" })}
              data-testid="c2c-admin-confirm"
            >
              {t("c2c.admin.confirm")}
            </Button>
          )}
          {o.status === "unmatched" && (
            <Button size="small" onClick={() => setActing({ order: o, kind: "match" })}>
              {t("c2c.admin.match")}
            </Button>
          )}
          {["unmatched", "matched", "paid"].includes(o.status) && (
            <Button
              size="small"
              danger
              onClick={() => setActing({ order: o, kind: "reject" })}
              data-testid="c2c-admin-reject"
            >
              {t("c2c.admin.reject")}
            </Button>
          )}
        </Flex>
      ),
    },
  ];

  const run = (reason: string) => {
    if (!acting) {
      return Promise.resolve();
    }
    const input = { order_id: acting.order.id };
    const action =
      acting.kind === "confirm"
        ? confirm.mutateAsync(input)
        : acting.kind === "match"
          ? match.mutateAsync(input)
          : reject.mutateAsync({ ...input, reason });
    return action.then(refresh);
  };

  return orders.isError ? (
    <QueryError error={orders.error} onRetry={() => void orders.refetch()} />
  ) : (
    <>
      <Table<C2cAdminOrder>
        rowKey="id"
        size="small"
        loading={orders.isPending}
        dataSource={orders.data?.list ?? []}
        columns={columns}
        scroll={{ x: 1100 }}
        pagination={{ current: page, pageSize: 20, total: orders.data?.total ?? 0, onChange: setPage }}
      />
      <ConfirmActionDialog
        open={acting !== null}
        title={acting ? t(`c2c.admin.${acting.kind}`) : ""}
        description={
          acting
            ? t("c2c.admin.actionDescription", {
                id: acting.order.id,
                fiat: `${acting.order.fiatAmount} ${acting.order.fiat}`,
                coin: `${acting.order.coinAmount} ${acting.order.coin}`,
              })
            : ""
        }
        okText={acting ? t(`c2c.admin.${acting.kind}`) : ""}
        danger={acting?.kind === "reject"}
        reasonRequired={acting?.kind === "reject"}
        onSubmit={run}
        onClose={() => setActing(null)}
      />
    </>
  );
}
