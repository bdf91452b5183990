import { money } from "@northstar/shared/money";
import { useQuery } from "@tanstack/react-query";
import type { TableColumnsType } from "antd";
import { Alert, Card, Flex, Table, Tag, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { useTRPC } from "../../lib/trpc.ts";
import { Amount } from "./admin-amount.tsx";
import { AdminPage, EmptyText, QueryError, RefreshButton } from "./admin-page.tsx";
import type { Reconciliation } from "./admin-types.ts";
import { DateTime } from "./date-time.tsx";

type Total = Reconciliation["totals"][number];
type MismatchedAccount = Reconciliation["mismatchedAccounts"][number];
type UnbalancedCurrency = Reconciliation["unbalancedCurrencies"][number];
type UnbalancedEntry = Reconciliation["unbalancedEntries"][number];
type RuleBreak = Reconciliation["ruleBreaks"][number];

/**
 * The reconciliation report: every balance recomputed from its postings, every currency summing to
 * zero per book, every system account keeping its sign rule. Users' totals are what the platform
 * owes; the system side is its counterpart (clearing, fees, house), so the two cancel out when the
 * ledger is sound.
 */
export function LedgerPage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const report = useQuery(trpc.admin.reconcile.queryOptions(undefined, { staleTime: 0 }));

  const totalColumns: TableColumnsType<Total> = [
    {
      title: t("admin.columns.book"),
      dataIndex: "book",
      width: 110,
      render: (v: string) => t(`admin.book.${v}`, { defaultValue: v }),
    },
    {
      title: t("fields.currency"),
      dataIndex: "currency",
      width: 100,
      render: (value: string) => <Typography.Text strong>{value}</Typography.Text>,
    },
    {
      title: t("admin.columns.usersTotal"),
      dataIndex: "users",
      align: "right",
      render: (v: string) => <Amount value={v} />,
    },
    {
      title: t("admin.columns.systemTotal"),
      dataIndex: "system",
      align: "right",
      render: (v: string) => <Amount value={v} />,
    },
    {
      title: t("admin.columns.net"),
      key: "net",
      align: "right",
      render: (_, row) => {
        const net = money(row.users).plus(row.system);
        return net.isZero() ? (
          <Tag color="success" style={{ marginInlineEnd: 0 }}>
            0
          </Tag>
        ) : (
          <Tag color="error" style={{ marginInlineEnd: 0 }}>
            {net.toFixed()}
          </Tag>
        );
      },
    },
  ];

  const accountColumns: TableColumnsType<MismatchedAccount> = [
    { title: t("admin.columns.account"), dataIndex: "accountId" },
    {
      title: t("admin.columns.storedBalance"),
      dataIndex: "balance",
      align: "right",
      render: (v: string) => <Amount value={v} />,
    },
    {
      title: t("admin.columns.computed"),
      dataIndex: "computed",
      align: "right",
      render: (v: string) => <Amount value={v} />,
    },
  ];
  const currencyColumns: TableColumnsType<UnbalancedCurrency> = [
    {
      title: t("admin.columns.book"),
      dataIndex: "book",
      render: (v: string) => t(`admin.book.${v}`, { defaultValue: v }),
    },
    { title: t("fields.currency"), dataIndex: "currency" },
    {
      title: t("admin.columns.sum"),
      dataIndex: "sum",
      align: "right",
      render: (v: string) => <Amount value={v} />,
    },
  ];
  const entryColumns: TableColumnsType<UnbalancedEntry> = [
    { title: t("admin.columns.entry"), dataIndex: "entryId" },
    { title: t("fields.currency"), dataIndex: "currency" },
    {
      title: t("admin.columns.sum"),
      dataIndex: "sum",
      align: "right",
      render: (v: string) => <Amount value={v} />,
    },
  ];
  const ruleColumns: TableColumnsType<RuleBreak> = [
    { title: t("admin.columns.account"), dataIndex: "accountId" },
    { title: t("admin.columns.systemAccount"), dataIndex: "systemCode" },
    {
      title: t("admin.columns.book"),
      dataIndex: "book",
      render: (v: string) => t(`admin.book.${v}`, { defaultValue: v }),
    },
    { title: t("fields.currency"), dataIndex: "currency" },
    {
      title: t("admin.columns.storedBalance"),
      dataIndex: "balance",
      align: "right",
      render: (v: string) => <Amount value={v} />,
    },
    {
      title: t("admin.columns.rule"),
      dataIndex: "rule",
      render: (v: RuleBreak["rule"]) => t(`admin.ledger.sign.${v}`),
    },
  ];

  return (
    <AdminPage
      title={t("admin.ledger.title")}
      extra={
        <>
          {report.dataUpdatedAt > 0 && (
            <Typography.Text type="secondary">
              {t("admin.ledger.checkedAt")} <DateTime value={new Date(report.dataUpdatedAt)} />
            </Typography.Text>
          )}
          <RefreshButton onClick={() => void report.refetch()} loading={report.isFetching} />
        </>
      }
    >
      {report.isPending ? (
        <Card loading />
      ) : report.isError ? (
        <Card>
          <QueryError error={report.error} onRetry={() => void report.refetch()} />
        </Card>
      ) : (
        <>
          {report.data.ok ? (
            <Alert
              type="success"
              showIcon
              title={t("admin.ledger.ok")}
              description={t("admin.ledger.okDetail")}
              data-testid="admin-ledger-ok"
            />
          ) : (
            <Alert
              type="error"
              showIcon
              title={t("admin.ledger.notOk")}
              description={t("admin.ledger.notOkDetail")}
              data-testid="admin-ledger-not-ok"
            />
          )}
          <Card title={t("admin.ledger.totals")} styles={{ body: { padding: 0 } }}>
            <Table<Total>
              rowKey={(r) => `${r.book}|${r.currency}`}
              size="middle"
              columns={totalColumns}
              dataSource={report.data.totals}
              pagination={false}
              scroll={{ x: 640 }}
              locale={{ emptyText: <EmptyText text={t("admin.ledger.noTotals")} /> }}
            />
          </Card>
          <Flex gap={16} wrap>
            {report.data.mismatchedAccounts.length > 0 && (
              <Card
                title={t("admin.ledger.mismatchedAccounts")}
                style={{ flex: "1 1 360px" }}
                styles={{ body: { padding: 0 } }}
              >
                <Table<MismatchedAccount>
                  rowKey="accountId"
                  size="small"
                  columns={accountColumns}
                  dataSource={report.data.mismatchedAccounts}
                  pagination={false}
                  scroll={{ x: 360 }}
                />
              </Card>
            )}
            {report.data.unbalancedCurrencies.length > 0 && (
              <Card
                title={t("admin.ledger.unbalancedCurrencies")}
                style={{ flex: "1 1 360px" }}
                styles={{ body: { padding: 0 } }}
              >
                <Table<UnbalancedCurrency>
                  rowKey={(r) => `${r.book}|${r.currency}`}
                  size="small"
                  columns={currencyColumns}
                  dataSource={report.data.unbalancedCurrencies}
                  pagination={false}
                  scroll={{ x: 360 }}
                />
              </Card>
            )}
            {report.data.unbalancedEntries.length > 0 && (
              <Card
                title={t("admin.ledger.unbalancedEntries")}
                style={{ flex: "1 1 360px" }}
                styles={{ body: { padding: 0 } }}
              >
                <Table<UnbalancedEntry>
                  rowKey={(r) => `${r.entryId}|${r.currency}`}
                  size="small"
                  columns={entryColumns}
                  dataSource={report.data.unbalancedEntries}
                  pagination={false}
                  scroll={{ x: 360 }}
                />
              </Card>
            )}
            {report.data.ruleBreaks.length > 0 && (
              <Card
                title={t("admin.ledger.ruleBreaks")}
                style={{ flex: "1 1 560px" }}
                styles={{ body: { padding: 0 } }}
              >
                <Table<RuleBreak>
                  rowKey="accountId"
                  size="small"
                  columns={ruleColumns}
                  dataSource={report.data.ruleBreaks}
                  pagination={false}
                  scroll={{ x: 560 }}
                />
              </Card>
            )}
          </Flex>
        </>
      )}
    </AdminPage>
  );
}
