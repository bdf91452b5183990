import type { LoanStatus } from "@northstar/shared/state-machines";
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
  contractNo: string;
  userId: number;
  currency: string;
  amount: string;
  cycleDays: number;
  interest: string;
  lateFees: string;
  overdueDays: number;
  dueDay: string | null;
  status: string;
  proofs: Record<string, string>;
  owed: { total: string };
};

/** Loans of some states; with `review`, each with its proofs and the approve / reject actions. */
export function LoansAdminTable({ statuses, review }: { statuses?: LoanStatus[]; review?: boolean }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const loans = useQuery(
    trpc.adminLoans.list.queryOptions(
      { page, page_size: 50, statuses },
      { placeholderData: keepPreviousData },
    ),
  );
  const approve = useMutation(trpc.adminLoans.approve.mutationOptions({ meta: { inline: true } }));
  const reject = useMutation(trpc.adminLoans.reject.mutationOptions({ meta: { inline: true } }));
  const [acting, setActing] = useState<{ id: number; no: string; kind: "approve" | "reject" } | null>(null);
  const refresh = () => queryClient.invalidateQueries(trpc.adminLoans.pathFilter());

  const columns: TableColumnsType<Row> = [
    { title: t("loans.contractNo"), dataIndex: "contractNo", width: 120 },
    { title: t("loans.admin.user"), dataIndex: "userId", width: 72 },
    {
      title: t("loans.amount"),
      key: "amount",
      align: "right",
      render: (_, l) => `${l.amount} ${l.currency}`,
    },
    { title: t("loans.cycle"), dataIndex: "cycleDays", render: (d: number) => t("loans.days", { count: d }) },
    { title: t("loans.interest"), dataIndex: "interest", align: "right" },
    { title: t("loans.dueDay"), dataIndex: "dueDay" },
    { title: t("loans.lateFees"), dataIndex: "lateFees", align: "right" },
    { title: t("loans.overdueDays"), dataIndex: "overdueDays", width: 80 },
    { title: t("loans.owed"), key: "owed", align: "right", render: (_, l) => l.owed.total },
    {
      title: t("fields.status"),
      dataIndex: "status",
      render: (s: string) => <Tag>{t(`loans.status.${s}`)}</Tag>,
    },
  ];
  if (review) {
    columns.push(
      {
        title: t("loans.admin.proofs"),
        key: "proofs",
        render: (_, l) => (
          <Flex gap={4} wrap>
            {Object.entries(l.proofs)
              .sort(([a], [b]) => a.localeCompare(b))
              .map(([kind, id]) => (
                <ProofImage key={kind} id={id} size={36} />
              ))}
          </Flex>
        ),
      },
      {
        title: "",
        key: "actions",
        render: (_, l) => (
          <Flex gap={8}>
            <Button
              size="small"
              type="primary"
              onClick={() => setActing({ id: l.id, no: l.contractNo, kind: "approve" })}
              data-testid={`loans-admin-approve-${l.id}`}
            >
              {t("loans.admin.approve")}
            </Button>
            <Button
              size="small"
              danger
              onClick={() => setActing({ id: l.id, no: l.contractNo, kind: "reject" })}
              data-testid={`loans-admin-reject-${l.id}`}
            >
              {t("loans.admin.reject")}
            </Button>
          </Flex>
        ),
      },
    );
  }
  if (loans.isError) {
    return <QueryError error={loans.error} onRetry={() => void loans.refetch()} />;
  }
  const rows = (loans.data?.items ?? []) as Row[];
  return (
    <>
      <Table<Row>
        rowKey="id"
        size="small"
        loading={loans.isPending}
        dataSource={rows}
        columns={columns}
        scroll={{ x: 960 }}
        pagination={{
          current: page,
          pageSize: 50,
          total: loans.data?.total ?? 0,
          onChange: setPage,
          showSizeChanger: false,
        }}
        data-testid="loans-admin-table"
      />
      <ConfirmActionDialog
        open={acting !== null}
        title={acting?.kind === "reject" ? t("loans.admin.reject") : t("loans.admin.approve")}
        description={
          acting
            ? `${acting.no} · ${acting.kind === "reject" ? t("loans.admin.rejectText") : t("loans.admin.approveText")}`
            : ""
        }
        okText={acting?.kind === "reject" ? t("loans.admin.reject") : t("loans.admin.approve")}
        danger={acting?.kind === "reject"}
        reasonRequired={acting?.kind === "reject"}
        onSubmit={(reason) =>
          (acting?.kind === "reject"
            ? reject.mutateAsync({ loan_id: acting.id, reason })
            : approve.mutateAsync({ loan_id: acting?.id ?? 0 })
          ).then(refresh)
        }
        onClose={() => setActing(null)}
      />
    </>
  );
}
