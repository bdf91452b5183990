import { Card, Table, type TableColumnsType } from "antd";
import { useTranslation } from "react-i18next";
import { EmptyText, QueryError } from "./admin-page.tsx";

/** Props for a table row carrying a test id (antd's row props are plain HTML attributes). */
export function rowTestId(testId: string): React.HTMLAttributes<HTMLElement> {
  return { "data-testid": testId } as React.HTMLAttributes<HTMLElement>;
}

/** A table's footer note: how many rows, and that queues show the newest 200. */
export function useTablePagination() {
  const { t } = useTranslation();
  return {
    defaultPageSize: 20,
    style: { marginInline: 16 },
    showSizeChanger: true,
    pageSizeOptions: [20, 50, 100, 200],
    showTotal: (total: number) => t("admin.table.total", { count: total }),
  };
}

/** The width a table needs for its columns: it scrolls sideways below that, and fills wider screens. */
export function tableWidth(columns: readonly { width?: number | string }[]): number {
  return columns.reduce((sum, c) => sum + (typeof c.width === "number" ? c.width : 160), 0);
}

/** A review queue's table in its card, with the error, loading and empty states. */
export function QueueTable<T extends { id: number }>({
  list,
  columns,
  rowTestIdPrefix,
  emptyText,
  testId,
  paged = true,
}: {
  list: {
    data: T[] | undefined;
    isPending: boolean;
    isError: boolean;
    error: unknown;
    refetch: () => unknown;
  };
  columns: TableColumnsType<T>;
  /** A string is followed by the row's id; a function names each row itself. */
  rowTestIdPrefix: string | ((row: T) => string);
  emptyText: string;
  testId?: string;
  /** A short list the operator reads whole is shown on one page. */
  paged?: boolean;
}) {
  const pagination = useTablePagination();
  return (
    <Card styles={{ body: { padding: 0 } }}>
      {list.isError ? (
        <QueryError error={list.error} onRetry={() => void list.refetch()} />
      ) : (
        <Table<T>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={list.data}
          loading={list.isPending}
          scroll={{ x: tableWidth(columns) }}
          pagination={paged ? pagination : false}
          onRow={(r) =>
            rowTestId(
              typeof rowTestIdPrefix === "function" ? rowTestIdPrefix(r) : `${rowTestIdPrefix}${r.id}`,
            )
          }
          locale={{ emptyText: list.isPending ? " " : <EmptyText text={emptyText} /> }}
          data-testid={testId}
        />
      )}
    </Card>
  );
}
