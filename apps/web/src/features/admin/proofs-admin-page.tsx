import type { AppRouter } from "@northstar/api/trpc";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { Button, Table, type TableColumnsType } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useTRPC } from "../../lib/trpc.ts";
import { AdminPage, QueryError } from "./admin-page.tsx";
import { ConfirmActionDialog } from "./confirm-action-dialog.tsx";

type Proof = inferRouterOutputs<AppRouter>["proofs"]["list"][number];

/**
 * Proofs of liabilities in the back office: the published roots and totals, and publishing one now
 * (the worker publishes one a day). The server audits each publication.
 */
export function ProofsAdminPage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const proofs = useQuery(trpc.proofs.list.queryOptions());
  const publish = useMutation(trpc.adminProofs.publish.mutationOptions({ meta: { inline: true } }));
  const [confirming, setConfirming] = useState(false);
  const columns: TableColumnsType<Proof> = [
    { title: "ID", dataIndex: "id", width: 64 },
    {
      title: t("proofs.snapshot"),
      dataIndex: "snapshotAt",
      render: (v: string) => new Date(v).toISOString(),
    },
    { title: t("proofs.root"), dataIndex: "rootHash", ellipsis: true },
    {
      title: t("proofs.totals"),
      key: "totals",
      render: (_, p) => p.totals.map((x) => `${x.total} ${x.currency}`).join(" · "),
    },
    { title: t("proofs.accountsTitle"), dataIndex: "leafCount", align: "right" },
  ];
  return (
    <AdminPage
      title={t("proofs.title")}
      extra={
        <Button type="primary" onClick={() => setConfirming(true)} data-testid="admin-proof-publish">
          {t("proofs.publish")}
        </Button>
      }
    >
      {proofs.isError ? (
        <QueryError error={proofs.error} onRetry={() => void proofs.refetch()} />
      ) : (
        <Table<Proof>
          rowKey="id"
          size="small"
          loading={proofs.isPending}
          dataSource={proofs.data ?? []}
          columns={columns}
          scroll={{ x: 900 }}
          pagination={false}
        />
      )}
      <ConfirmActionDialog
        open={confirming}
        title={t("proofs.publish")}
        description={t("proofs.publishHint")}
        okText={t("proofs.publish")}
        onSubmit={() =>
          publish.mutateAsync().then(() => queryClient.invalidateQueries(trpc.proofs.pathFilter()))
        }
        onClose={() => setConfirming(false)}
      />
    </AdminPage>
  );
}
