import { useQueryClient } from "@tanstack/react-query";
import type { TableColumnsType } from "antd";
import { Typography } from "antd";
import { type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { feedback } from "../../lib/feedback.ts";
import { AdminPage, RefreshButton } from "./admin-page.tsx";
import { ConfirmActionDialog } from "./confirm-action-dialog.tsx";
import { QueueTable } from "./queue-table.tsx";
import { ReviewButtons, ReviewState } from "./review-controls.tsx";
import { StatusFilter, useStatusFilter } from "./status-filter.tsx";

/** What a reviewable row carries: its state and, once reviewed, who ended it and why. */
interface ReviewRow {
  id: number;
  status: string;
  rejectReason: string | null;
  reviewedAt: string | null;
}

/** The texts and the call of one review decision (accept or reject) on a row. */
interface Decision<Row> {
  title: (row: Row) => string;
  body: (row: Row) => ReactNode;
  done: (row: Row) => string;
  run: (row: Row, reason: string) => Promise<unknown>;
}

/**
 * A back-office review queue (deposits, withdrawals): a status filter, the rows newest first, and
 * for a pending row (or one in the `release` state) an accept and a reject button, each confirmed in a dialog; a rejection needs
 * a reason, which the user sees. Whatever the answer (even "already reviewed"), the queue is read
 * again.
 */
export function ReviewQueuePage<Row extends ReviewRow, S extends string>({
  title,
  emptyText,
  statuses,
  useList,
  columns,
  tableTestId,
  testIdStem,
  acceptKey,
  acceptLabel,
  accept,
  reject,
  release,
}: {
  title: string;
  emptyText: string;
  statuses: readonly S[];
  /** The rows of a status; called as a hook, so it must be the same function on every render. */
  useList: (status: S | "all") => {
    data: Row[] | undefined;
    isPending: boolean;
    isFetching: boolean;
    isError: boolean;
    error: unknown;
    refetch: () => unknown;
  };
  columns: TableColumnsType<Row>;
  tableTestId: string;
  /** `admin-deposit` gives admin-deposit-row-1, admin-deposit-confirm-1 and admin-deposit-reject-1. */
  testIdStem: string;
  /** The accept button's word in test ids: `confirm` for deposits, `approve` for withdrawals. */
  acceptKey: string;
  acceptLabel: string;
  accept: Decision<Row>;
  reject: Decision<Row>;
  /**
   * A second state that waits for an operator, with its own accept (a withdrawal over the daily
   * hot-wallet limit: release) beside the same reject.
   */
  release?: { status: string; key: string; label: string; decision: Decision<Row> };
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [status, setStatus] = useStatusFilter(statuses);
  const list = useList(status);
  const [action, setAction] = useState<{ kind: "accept" | "release" | "reject"; row: Row } | null>(null);
  const waits = (row: Row) => row.status === "pending" || row.status === release?.status;
  const openStatus = status === "pending" || status === release?.status;

  const review: TableColumnsType<Row>[number] = {
    // Pending rows get the review buttons; reviewed ones show how they ended.
    title: openStatus ? t("admin.columns.actions") : t("fields.status"),
    key: "review",
    width: openStatus ? 120 : 190,
    fixed: "right",
    render: (_, row) =>
      waits(row) ? (
        <ReviewButtons
          acceptLabel={row.status === "pending" || !release ? acceptLabel : release.label}
          testIdPrefix={{
            accept: `${testIdStem}-${row.status === "pending" || !release ? acceptKey : release.key}-${row.id}`,
            reject: `${testIdStem}-reject-${row.id}`,
          }}
          onAccept={() => setAction({ kind: row.status === "pending" ? "accept" : "release", row })}
          onReject={() => setAction({ kind: "reject", row })}
        />
      ) : (
        <ReviewState row={row} />
      ),
  };

  const row = action?.row;
  const decision =
    action?.kind === "reject" ? reject : action?.kind === "release" && release ? release.decision : accept;
  return (
    <AdminPage
      title={title}
      extra={
        <>
          <StatusFilter statuses={statuses} value={status} onChange={setStatus} />
          <RefreshButton onClick={() => void list.refetch()} loading={list.isFetching} />
        </>
      }
    >
      <QueueTable<Row>
        list={list}
        columns={[...columns, review]}
        rowTestIdPrefix={`${testIdStem}-row-`}
        emptyText={emptyText}
        testId={tableTestId}
      />
      <Typography.Text type="secondary">{t("admin.table.newest")}</Typography.Text>
      <ConfirmActionDialog
        open={action !== null}
        title={row ? decision.title(row) : ""}
        description={row && decision.body(row)}
        okText={
          action?.kind === "reject"
            ? t("admin.review.reject")
            : action?.kind === "release" && release
              ? release.label
              : acceptLabel
        }
        danger={action?.kind === "reject"}
        reasonRequired={action?.kind === "reject"}
        onClose={() => setAction(null)}
        onSubmit={async (reason) => {
          if (!row) {
            return;
          }
          try {
            await decision.run(row, reason);
            feedback.success(decision.done(row));
          } finally {
            void queryClient.invalidateQueries();
          }
        }}
      />
    </AdminPage>
  );
}
