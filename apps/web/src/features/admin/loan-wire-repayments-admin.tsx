import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Button, Flex, Table, type TableColumnsType, Tag } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useTRPC } from "../../lib/trpc.ts";
import { QueryError } from "./admin-page.tsx";
import { ConfirmActionDialog } from "./confirm-action-dialog.tsx";
import { ProofImage } from "./proof-image.tsx";

type Row = {
  id: number;
  loanId: number;
  userId: number;
  amount: string;
  uploadId: string | null;
  status: string;
  rejectReason: string | null;
};

/** Wire repayments with their proofs: confirm once the money has arrived, or reject with a reason. */
export function LoanWireRepaymentsAdmin() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const rows = useQuery(
    trpc.adminLoans.wireRepayments.queryOptions(
      { page, page_size: 50 },
      { placeholderData: keepPreviousData },
    ),
  );
  const confirm = useMutation(trpc.adminLoans.confirmWire.mutationOptions({ meta: { inline: true } }));
  const reject = useMutation(trpc.adminLoans.rejectWire.mutationOptions({ meta: { inline: true } }));
  const [acting, setActing] = useState<{ id: number; kind: "confirm" | "reject" } | null>(null);
  const refresh = () => queryClient.invalidateQueries(trpc.adminLoans.pathFilter());

  const columns: TableColumnsType<Row> = [
    { title: "ID", dataIndex: "id", width: 64 },
    { title: t("fields.loanId"), dataIndex: "loanId", width: 80 },
    { title: t("loans.admin.user"), dataIndex: "userId", width: 72 },
    { title: t("loans.repayAmount"), dataIndex: "amount", align: "right" },
    { title: t("loans.wireProof"), key: "proof", render: (_, r) => <ProofImage id={r.uploadId} /> },
    { title: t("fields.status"), dataIndex: "status", render: (s: string) => <Tag>{s}</Tag> },
    {
      title: "",
      key: "actions",
      render: (_, r) =>
        r.status === "pending" ? (
          <Flex gap={8}>
            <Button size="small" type="primary" onClick={() => setActing({ id: r.id, kind: "confirm" })}>
              {t("loans.admin.confirmWire")}
            </Button>
            <Button size="small" danger onClick={() => setActing({ id: r.id, kind: "reject" })}>
              {t("loans.admin.reject")}
            </Button>
          </Flex>
        ) : (
          r.rejectReason
        ),
    },
  ];
  if (rows.isError) {
    return <QueryError error={rows.error} onRetry={() => void rows.refetch()} />;
  }
  return (
    <>
      <Table<Row>
        rowKey="id"
        size="small"
        loading={rows.isPending}
        dataSource={(rows.data ?? []) as Row[]}
        columns={columns}
        scroll={{ x: 720 }}
        pagination={{
          current: page,
          pageSize: 50,
          total: (page - 1) * 50 + (rows.data?.length ?? 0) + (rows.data?.length === 50 ? 1 : 0),
          onChange: setPage,
          showSizeChanger: false,
        }}
      />
      <ConfirmActionDialog
        open={acting !== null}
        title={acting?.kind === "reject" ? t("loans.admin.reject") : t("loans.admin.confirmWire")}
        description={acting?.kind === "reject" ? "" : t("loans.admin.confirmWireText")}
        okText={acting?.kind === "reject" ? t("loans.admin.reject") : t("loans.admin.confirmWire")}
        danger={acting?.kind === "reject"}
        reasonRequired={acting?.kind === "reject"}
        onSubmit={(reason) =>
          (acting?.kind === "reject"
            ? reject.mutateAsync({ repayment_id: acting.id, reason })
            : confirm.mutateAsync({ repayment_id: acting?.id ?? 0 })
          ).then(refresh)
        }
        onClose={() => setActing(null)}
      />
    </>
  );
}
