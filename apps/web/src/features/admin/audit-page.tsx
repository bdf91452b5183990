import { useQuery } from "@tanstack/react-query";
import type { TableColumnsType } from "antd";
import { Card, Input, Table, Tag, Typography } from "antd";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useTRPC } from "../../lib/trpc.ts";
import { AdminPage, EmptyText, QueryError, RefreshButton } from "./admin-page.tsx";
import type { AuditRow } from "./admin-types.ts";
import { DateTime } from "./date-time.tsx";
import { JsonBlock } from "./json-block.tsx";
import { rowTestId, useTablePagination } from "./queue-table.tsx";

/** Every operator action, newest first (the latest 200), append-only. */
export function AuditPage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const pagination = useTablePagination();
  const log = useQuery(trpc.admin.audit.queryOptions());
  const [filter, setFilter] = useState("");

  const rows = useMemo(() => {
    const needle = filter.trim().toLowerCase();
    if (!needle) {
      return log.data;
    }
    return log.data?.filter((r) =>
      [r.actor, r.action, r.subject ?? "", JSON.stringify(r.details)].some((v) =>
        v.toLowerCase().includes(needle),
      ),
    );
  }, [log.data, filter]);

  const columns: TableColumnsType<AuditRow> = [
    { title: t("fields.id"), dataIndex: "id", width: 64 },
    {
      title: t("admin.columns.time"),
      dataIndex: "createdAt",
      width: 130,
      render: (value: string) => <DateTime value={value} stacked />,
    },
    {
      title: t("admin.columns.actor"),
      dataIndex: "actor",
      width: 130,
      render: (value: string) => <Typography.Text code>{value}</Typography.Text>,
    },
    {
      title: t("admin.columns.action"),
      dataIndex: "action",
      width: 170,
      render: (value: string) => <Tag color="blue">{value}</Tag>,
    },
    {
      title: t("admin.columns.subject"),
      dataIndex: "subject",
      width: 140,
      render: (value: string | null) => value ?? <Typography.Text type="secondary">—</Typography.Text>,
    },
    {
      title: t("admin.columns.details"),
      dataIndex: "details",
      render: (value: unknown) =>
        value && typeof value === "object" && Object.keys(value).length === 0 ? (
          <Typography.Text type="secondary">—</Typography.Text>
        ) : (
          <JsonBlock value={value} maxHeight={120} />
        ),
    },
  ];

  return (
    <AdminPage
      title={t("admin.audit.title")}
      extra={
        <>
          <Input.Search
            allowClear
            placeholder={t("admin.audit.filter")}
            onChange={(e) => setFilter(e.target.value)}
            style={{ width: 260 }}
            data-testid="admin-audit-filter"
          />
          <RefreshButton onClick={() => void log.refetch()} loading={log.isFetching} />
        </>
      }
    >
      <Card styles={{ body: { padding: 0 } }}>
        {log.isError ? (
          <QueryError error={log.error} onRetry={() => void log.refetch()} />
        ) : (
          <Table<AuditRow>
            rowKey="id"
            size="middle"
            columns={columns}
            dataSource={rows}
            loading={log.isPending}
            pagination={pagination}
            scroll={{ x: 960 }}
            onRow={(r) => rowTestId(`admin-audit-row-${r.id}`)}
            locale={{ emptyText: log.isPending ? " " : <EmptyText /> }}
          />
        )}
      </Card>
      <Typography.Text type="secondary">{t("admin.audit.note")}</Typography.Text>
    </AdminPage>
  );
}
