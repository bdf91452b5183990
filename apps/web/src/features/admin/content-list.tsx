import type { UseQueryResult } from "@tanstack/react-query";
import { Button, Table, type TableColumnsType, type TablePaginationConfig } from "antd";
import { useTranslation } from "react-i18next";
import { QueryError } from "./admin-page.tsx";

/** One list of the content back office: its error state, the "New" button and the table. */
export function ContentList<T extends { id: number }>({
  list,
  columns,
  onNew,
  newTestId,
  tableTestId,
  pagination = false,
}: {
  list: UseQueryResult<T[], unknown>;
  columns: TableColumnsType<T>;
  onNew: () => void;
  newTestId: string;
  tableTestId: string;
  pagination?: false | TablePaginationConfig;
}) {
  const { t } = useTranslation();
  if (list.isError) {
    return <QueryError error={list.error} onRetry={() => void list.refetch()} />;
  }
  return (
    <>
      <Button type="primary" onClick={onNew} style={{ marginBottom: 12 }} data-testid={newTestId}>
        {t("admin.content.new")}
      </Button>
      <Table<T>
        rowKey="id"
        size="small"
        loading={list.isPending}
        dataSource={list.data ?? []}
        columns={columns}
        pagination={pagination}
        data-testid={tableTestId}
      />
    </>
  );
}
