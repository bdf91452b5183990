import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Button, Table, type TableColumnsType, Tag } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useTRPC } from "../../lib/trpc.ts";
import type { OfferingSubscription as Row } from "../launchpad/launchpad-types.ts";
import { QueryError } from "./admin-page.tsx";
import { ConfirmActionDialog } from "./confirm-action-dialog.tsx";

const PAGE_SIZE = 20;

/**
 * The subscriptions of one offering, oldest first, under its row in the back office. One under
 * review can be rejected with a reason (the user's record shows it); the server releases its frozen
 * amount and audits the decision.
 */
export function LaunchpadSubscriptionsAdmin({ offeringId }: { offeringId: number }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [rejecting, setRejecting] = useState<Row | null>(null);
  const list = useQuery(
    trpc.adminLaunchpad.subscriptions.queryOptions({ offering_id: offeringId, page, page_size: PAGE_SIZE }),
  );
  const reject = useMutation(
    trpc.adminLaunchpad.rejectSubscription.mutationOptions({ meta: { inline: true } }),
  );
  const columns: TableColumnsType<Row> = [
    { title: "ID", dataIndex: "id", width: 64 },
    { title: t("launchpad.admin.user"), dataIndex: "userId", width: 96 },
    { title: t("launchpad.quantity"), dataIndex: "quantity", align: "right" },
    {
      title: t("launchpad.frozen"),
      key: "frozen",
      align: "right",
      render: (_, r) => `${r.frozen} ${r.payCurrency}`,
    },
    { title: t("launchpad.passedQuantity"), dataIndex: "passedQuantity", align: "right" },
    { title: "", dataIndex: "status", render: (s: string) => <Tag>{t(`launchpad.status.${s}`)}</Tag> },
    {
      title: t("launchpad.rejectReason"),
      key: "reason",
      render: (_, r) => r.rejectReason ?? r.failReason ?? "",
    },
    {
      title: "",
      key: "actions",
      render: (_, r) =>
        r.status === "reviewing" && (
          <Button
            size="small"
            danger
            data-testid={`launchpad-sub-reject-${r.id}`}
            onClick={() => setRejecting(r)}
          >
            {t("launchpad.admin.reject")}
          </Button>
        ),
    },
  ];
  if (list.isError) {
    return <QueryError error={list.error} onRetry={() => void list.refetch()} />;
  }
  return (
    <>
      <Table<Row>
        rowKey="id"
        size="small"
        loading={list.isPending}
        dataSource={list.data ?? []}
        columns={columns}
        locale={{ emptyText: t("launchpad.admin.noSubscriptions") }}
        pagination={{
          current: page,
          pageSize: PAGE_SIZE,
          // The server pages without a total: a full page means there may be another.
          total:
            (page - 1) * PAGE_SIZE + (list.data?.length ?? 0) + (list.data?.length === PAGE_SIZE ? 1 : 0),
          onChange: setPage,
          hideOnSinglePage: true,
        }}
      />
      <ConfirmActionDialog
        open={rejecting !== null}
        title={t("launchpad.admin.reject")}
        description={rejecting ? `ID ${rejecting.id} · ${rejecting.quantity} ${rejecting.coin}` : ""}
        okText={t("launchpad.admin.reject")}
        danger
        reasonRequired
        onSubmit={(reason) =>
          reject
            .mutateAsync({ id: rejecting?.id ?? 0, reason })
            .then(() => queryClient.invalidateQueries(trpc.adminLaunchpad.pathFilter()))
        }
        onClose={() => setRejecting(null)}
      />
    </>
  );
}
