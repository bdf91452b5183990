import { SearchOutlined } from "@ant-design/icons";
import { useQuery } from "@tanstack/react-query";
import type { TableColumnsType } from "antd";
import { Alert, Card, Descriptions, Flex, Input, Result, Table, Tabs, Tag, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { toApiError, useTRPC } from "../../lib/trpc.ts";
import { Amount } from "./admin-amount.tsx";
import { AdminPage, EmptyText, QueryError, RefreshButton } from "./admin-page.tsx";
import type { UserLookup } from "./admin-types.ts";
import { DateTime } from "./date-time.tsx";
import { useTablePagination } from "./queue-table.tsx";
import { UserApiKeys } from "./user-api-keys.tsx";
import { UserStatusControl } from "./user-status-control.tsx";

type Balance = UserLookup["balances"]["real"][number];
type LedgerLine = UserLookup["ledger"][number];

/**
 * A user by uid, email or phone: profile, balances in both books and recent ledger lines.
 * Balances are read-only by design: a balance changes only through ledger entries of business
 * actions. Roles holding `users.freeze` may freeze or unfreeze the account, with a reason.
 */
export function UsersPage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const [params, setParams] = useSearchParams();
  const query = params.get("q")?.trim() ?? "";
  const user = useQuery(trpc.admin.user.queryOptions({ query }, { enabled: query !== "" }));
  const notFound = user.isError && toApiError(user.error).errorCode === "NOT_FOUND";

  return (
    <AdminPage
      title={t("admin.users.title")}
      extra={
        query ? <RefreshButton onClick={() => void user.refetch()} loading={user.isFetching} /> : undefined
      }
    >
      <Card>
        <Input.Search
          key={query}
          defaultValue={query}
          placeholder={t("admin.users.searchPlaceholder")}
          enterButton={
            <>
              <SearchOutlined /> {t("admin.users.search")}
            </>
          }
          allowClear
          maxLength={254}
          size="large"
          style={{ maxWidth: 560 }}
          onSearch={(value) => {
            const next = value.trim();
            setParams(next ? { q: next } : {}, { replace: false });
          }}
          data-testid="admin-user-search"
        />
      </Card>
      {query === "" ? (
        <Card>
          <EmptyText text={t("admin.users.hint")} />
        </Card>
      ) : user.isPending ? (
        <Card loading />
      ) : notFound ? (
        <Card>
          <Result status="info" title={t("admin.users.notFound", { query })} />
        </Card>
      ) : user.isError ? (
        <Card>
          <QueryError error={user.error} onRetry={() => void user.refetch()} />
        </Card>
      ) : (
        <UserDetails user={user.data} />
      )}
    </AdminPage>
  );
}

function UserDetails({ user }: { user: UserLookup }) {
  const { t } = useTranslation();
  const pagination = useTablePagination();

  const balanceColumns: TableColumnsType<Balance> = [
    {
      title: t("admin.columns.wallet"),
      dataIndex: "wallet",
      render: (value: string) => t(`admin.wallet.${value}`),
    },
    {
      title: t("fields.currency"),
      dataIndex: "currency",
      render: (value: string) => <Typography.Text strong>{value}</Typography.Text>,
    },
    {
      title: t("admin.columns.available"),
      dataIndex: "available",
      align: "right",
      render: (value: string) => <Amount value={value} />,
    },
    {
      title: t("admin.columns.held"),
      dataIndex: "held",
      align: "right",
      render: (value: string) => <Amount value={value} />,
    },
  ];

  const ledgerColumns: TableColumnsType<LedgerLine> = [
    {
      title: t("admin.columns.time"),
      dataIndex: "time",
      width: 130,
      render: (value: number) => <DateTime value={value} stacked />,
    },
    {
      title: t("admin.columns.entryKind"),
      dataIndex: "kind",
      width: 150,
      render: (value: string) => <Tag>{value}</Tag>,
    },
    {
      title: t("admin.columns.wallet"),
      dataIndex: "wallet",
      width: 110,
      render: (value: string | null) => (value ? t(`admin.wallet.${value}`) : "—"),
    },
    {
      title: t("admin.columns.bucket"),
      dataIndex: "bucket",
      width: 100,
      render: (value: string) => t(`admin.bucket.${value}`, { defaultValue: value }),
    },
    { title: t("fields.currency"), dataIndex: "currency", width: 90 },
    {
      title: t("fields.amount"),
      dataIndex: "amount",
      width: 130,
      align: "right",
      render: (value: string) => <Amount value={value} signed />,
    },
    {
      title: t("admin.columns.balanceAfter"),
      dataIndex: "balanceAfter",
      width: 130,
      align: "right",
      render: (value: string) => <Amount value={value} />,
    },
    {
      title: t("admin.columns.reference"),
      key: "reference",
      width: 130,
      render: (_, row) =>
        row.referenceType ? (
          <Typography.Text type="secondary">
            {row.referenceType} #{row.referenceId}
          </Typography.Text>
        ) : (
          "—"
        ),
    },
  ];

  const balanceTable = (rows: Balance[]) => (
    <Table<Balance>
      rowKey={(r) => `${r.wallet}|${r.currency}`}
      size="small"
      columns={balanceColumns}
      dataSource={rows}
      pagination={false}
      scroll={{ x: 520 }}
      locale={{ emptyText: <EmptyText text={t("admin.users.noBalances")} /> }}
    />
  );

  return (
    <Flex vertical gap={16} data-testid="admin-user-details">
      <Card title={t("admin.users.profile")} extra={<UserStatusControl user={user} />}>
        <Descriptions
          column={{ xs: 1, md: 2, xl: 3 }}
          size="small"
          items={[
            {
              key: "uid",
              label: t("admin.columns.uid"),
              children: <Typography.Text copyable>{user.uid}</Typography.Text>,
            },
            { key: "id", label: t("fields.id"), children: user.id },
            { key: "email", label: t("fields.email"), children: user.email ?? "—" },
            { key: "phone", label: t("fields.phone"), children: user.phone ?? "—" },
            {
              key: "kind",
              label: t("admin.users.accountKind"),
              children: (
                <Tag color={user.kind === "real" ? "blue" : "gold"}>{t(`admin.book.${user.kind}`)}</Tag>
              ),
            },
            {
              key: "status",
              label: t("fields.status"),
              children: (
                <Tag color={user.status === "active" ? "success" : "error"}>
                  {t(`admin.users.status.${user.status}`)}
                </Tag>
              ),
            },
            {
              key: "created",
              label: t("admin.users.registered"),
              children: <DateTime value={user.createdAt} />,
            },
          ]}
        />
      </Card>
      <UserApiKeys user={user} />
      <Card title={t("admin.users.balances")}>
        <Alert type="info" showIcon title={t("admin.users.readOnly")} style={{ marginBottom: 12 }} />
        <Tabs
          defaultActiveKey={user.kind}
          items={(["real", "demo"] as const).map((book) => ({
            key: book,
            label: t(`admin.book.${book}`),
            children: balanceTable(user.balances[book]),
          }))}
        />
      </Card>
      <Card
        title={t("admin.users.ledger", { book: t(`admin.book.${user.kind}`) })}
        styles={{ body: { padding: 0 } }}
      >
        <Table<LedgerLine>
          rowKey="id"
          size="small"
          columns={ledgerColumns}
          dataSource={user.ledger}
          pagination={pagination}
          scroll={{ x: 970 }}
          locale={{ emptyText: <EmptyText text={t("admin.users.noLedger")} /> }}
        />
      </Card>
    </Flex>
  );
}
