import { LockOutlined, UnlockOutlined } from "@ant-design/icons";
import { can } from "@northstar/shared/operators";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { TableColumnsType } from "antd";
import { Button, Card, Table, Tag, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useTRPC } from "../../lib/trpc.ts";
import { useOperator } from "./admin-layout.tsx";
import { EmptyText, QueryError } from "./admin-page.tsx";
import { ConfirmActionDialog } from "./confirm-action-dialog.tsx";
import { DateTime } from "./date-time.tsx";

interface OperatorKeyView {
  id: number;
  label: string;
  keyPrefix: string;
  permissions: string[];
  status: string;
  createdAt: string | Date;
  lastUsedAt: string | Date | null;
}

const STATUS_COLOR: Record<string, string> = {
  active: "success",
  disabled: "default",
  blocked: "error",
  deleted: "default",
};

/**
 * A user's API keys in the back office, oldest first: prefix, label, permissions, created, last used
 * and state. Roles holding `users.freeze` block a key (its bots are refused at once on every API
 * instance) or lift the block, with a reason; both are audited. The secret is never shown.
 */
export function UserApiKeys({ user }: { user: { id: number; uid: string } }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const operator = useOperator();
  const keys = useQuery(trpc.apiKeysAdmin.list.queryOptions({ user_id: user.id }));
  const mayBlock = can(operator.role, "users.freeze");

  const columns: TableColumnsType<OperatorKeyView> = [
    {
      title: t("admin.users.apiKeys.prefix"),
      dataIndex: "keyPrefix",
      width: 130,
      render: (value: string) => <Typography.Text code>{value}…</Typography.Text>,
    },
    { title: t("admin.users.apiKeys.label"), dataIndex: "label", width: 160 },
    {
      title: t("admin.users.apiKeys.permissions"),
      dataIndex: "permissions",
      width: 170,
      render: (value: string[]) =>
        value.map((p) => <Tag key={p}>{t(`account.apiKeys.permission_${p}`)}</Tag>),
    },
    {
      title: t("admin.users.apiKeys.created"),
      dataIndex: "createdAt",
      width: 130,
      render: (value: string) => <DateTime value={value} stacked />,
    },
    {
      title: t("admin.users.apiKeys.lastUsed"),
      dataIndex: "lastUsedAt",
      width: 130,
      render: (value: string | null) =>
        value ? <DateTime value={value} stacked /> : t("admin.users.apiKeys.never"),
    },
    {
      title: t("admin.users.apiKeys.state"),
      dataIndex: "status",
      width: 150,
      render: (value: string) => (
        <Tag color={STATUS_COLOR[value] ?? "default"} data-testid="admin-api-key-state">
          {t(`account.apiKeys.status_${value}`)}
        </Tag>
      ),
    },
    ...(mayBlock
      ? [
          {
            key: "action",
            width: 120,
            render: (_: unknown, row: OperatorKeyView) =>
              row.status === "deleted" ? null : <BlockControl apiKey={row} user={user} />,
          },
        ]
      : []),
  ];

  return (
    <Card
      title={t("admin.users.apiKeys.title")}
      styles={{ body: { padding: 0 } }}
      data-testid="admin-user-api-keys"
    >
      {keys.isPending ? (
        <Card loading variant="borderless" />
      ) : keys.isError ? (
        <QueryError error={keys.error} onRetry={() => void keys.refetch()} />
      ) : (
        <Table<OperatorKeyView>
          rowKey="id"
          size="small"
          columns={columns}
          dataSource={keys.data as OperatorKeyView[]}
          pagination={false}
          scroll={{ x: 890 }}
          onRow={(row) => ({ "data-testid": `admin-api-key-${row.id}` }) as React.HTMLAttributes<HTMLElement>}
          locale={{ emptyText: <EmptyText text={t("admin.users.apiKeys.none")} /> }}
        />
      )}
    </Card>
  );
}

function BlockControl({ apiKey, user }: { apiKey: OperatorKeyView; user: { id: number; uid: string } }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const setBlocked = useMutation(trpc.apiKeysAdmin.setBlocked.mutationOptions({ meta: { inline: true } }));
  const blocked = apiKey.status === "blocked";
  const action = blocked ? "unblock" : "block";
  return (
    <>
      <Button
        size="small"
        danger={!blocked}
        icon={blocked ? <UnlockOutlined /> : <LockOutlined />}
        onClick={() => setOpen(true)}
        data-testid={`admin-api-key-${action}-${apiKey.id}`}
      >
        {t(`admin.users.apiKeys.${action}`)}
      </Button>
      <ConfirmActionDialog
        open={open}
        title={t(`admin.users.apiKeys.${action}`)}
        description={t(`admin.users.apiKeys.${action}Description`, {
          prefix: apiKey.keyPrefix,
          uid: user.uid,
        })}
        okText={t(`admin.users.apiKeys.${action}`)}
        danger={!blocked}
        reasonRequired
        onSubmit={async (reason) => {
          await setBlocked.mutateAsync({ id: apiKey.id, blocked: !blocked, reason });
          await queryClient.invalidateQueries(trpc.apiKeysAdmin.list.pathFilter());
        }}
        onClose={() => setOpen(false)}
      />
    </>
  );
}
