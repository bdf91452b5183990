import { OPERATOR_ROLES, OPERATOR_USERNAME } from "@northstar/shared/operators";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { TableColumnsType } from "antd";
import { Alert, Button, Flex, Form, Input, Modal, Select, Space, Table, Tag, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useTRPC } from "../../lib/trpc.ts";
import { useOperator } from "./admin-layout.tsx";
import { AdminPage, QueryError, RefreshButton } from "./admin-page.tsx";
import { refusalText } from "./admin-query-client.ts";
import type { AdminOutputs, OperatorRole } from "./admin-types.ts";
import { ConfirmActionDialog } from "./confirm-action-dialog.tsx";
import { DateTime } from "./date-time.tsx";

type OperatorRow = AdminOutputs["operators"]["list"][number];

/** An action on one operator, confirmed in a dialog before it is sent. */
type PendingAction =
  | { kind: "role"; row: OperatorRow; role: OperatorRole }
  | { kind: "status"; row: OperatorRow }
  | { kind: "sessions"; row: OperatorRow }
  | { kind: "twoFactor"; row: OperatorRow };

/**
 * /admin/operators (administrators only): every operator with role, status and two-factor state;
 * adding one (the password is shown once), changing a role, disabling (which ends their sessions),
 * signing them out everywhere and resetting two-factor for a lost phone. Each action is confirmed
 * first; the server refuses changes to one's own account and audits every change.
 */
export function OperatorsPage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const me = useOperator();
  const list = useQuery(trpc.admin.operators.list.queryOptions());
  const [adding, setAdding] = useState(false);
  const [pending, setPending] = useState<PendingAction>();
  const refresh = () => queryClient.invalidateQueries(trpc.admin.operators.pathFilter());
  const setRole = useMutation(trpc.admin.operators.setRole.mutationOptions({ meta: { inline: true } }));
  const setStatus = useMutation(trpc.admin.operators.setStatus.mutationOptions({ meta: { inline: true } }));
  const revoke = useMutation(trpc.admin.operators.revokeSessions.mutationOptions({ meta: { inline: true } }));
  const reset = useMutation(trpc.admin.operators.resetTwoFactor.mutationOptions({ meta: { inline: true } }));

  const roleOptions = OPERATOR_ROLES.map((role) => ({ value: role, label: t(`admin.role.${role}`) }));
  const columns: TableColumnsType<OperatorRow> = [
    {
      title: t("admin.operators.username"),
      dataIndex: "username",
      render: (name: string, row) => (
        <Space size={4}>
          <Typography.Text strong>{name}</Typography.Text>
          {row.id === me.id && <Tag>{t("admin.operators.you")}</Tag>}
        </Space>
      ),
    },
    {
      title: t("admin.operators.role"),
      key: "role",
      width: 190,
      render: (_, row) => (
        <Select<OperatorRole>
          size="small"
          value={row.role}
          options={roleOptions}
          disabled={row.id === me.id}
          style={{ width: 160 }}
          onChange={(role) => setPending({ kind: "role", row, role })}
          data-testid={`admin-operator-role-${row.username}`}
        />
      ),
    },
    {
      title: t("admin.operators.status"),
      dataIndex: "status",
      render: (status: OperatorRow["status"], row) => (
        <Tag
          color={status === "active" ? "green" : "default"}
          data-testid={`admin-operator-status-${row.username}`}
        >
          {t(`admin.operators.${status}`)}
        </Tag>
      ),
    },
    {
      title: t("admin.operators.twoFactor"),
      dataIndex: "twoFactorAt",
      render: (at: string | null) =>
        at ? (
          <Tag color="blue">{t("admin.security.enrolled")}</Tag>
        ) : (
          <Tag>{t("admin.operators.notEnrolled")}</Tag>
        ),
    },
    {
      title: t("admin.operators.added"),
      dataIndex: "createdAt",
      render: (at: string) => <DateTime value={at} />,
    },
    {
      title: "",
      key: "actions",
      align: "right",
      render: (_, row) =>
        row.id === me.id ? null : (
          <Space size={4} wrap>
            <Button
              size="small"
              danger={row.status === "active"}
              onClick={() => setPending({ kind: "status", row })}
              data-testid={`admin-operator-toggle-${row.username}`}
            >
              {t(row.status === "active" ? "admin.operators.disable" : "admin.operators.enable")}
            </Button>
            <Button size="small" onClick={() => setPending({ kind: "sessions", row })}>
              {t("admin.operators.revokeSessions")}
            </Button>
            {row.twoFactorAt && (
              <Button size="small" onClick={() => setPending({ kind: "twoFactor", row })}>
                {t("admin.operators.resetTwoFactor")}
              </Button>
            )}
          </Space>
        ),
    },
  ];

  const confirm = pending && confirmation(pending);
  function confirmation(action: PendingAction) {
    const name = action.row.username;
    switch (action.kind) {
      case "role":
        return {
          title: t("admin.operators.changeRole"),
          description: t("admin.operators.changeRoleHint", { name, role: t(`admin.role.${action.role}`) }),
          submit: () => setRole.mutateAsync({ username: name, role: action.role }),
        };
      case "status": {
        const disabling = action.row.status === "active";
        return {
          title: t(disabling ? "admin.operators.disable" : "admin.operators.enable"),
          description: t(disabling ? "admin.operators.disableHint" : "admin.operators.enableHint", { name }),
          danger: disabling,
          submit: () => setStatus.mutateAsync({ username: name, status: disabling ? "disabled" : "active" }),
        };
      }
      case "sessions":
        return {
          title: t("admin.operators.revokeSessions"),
          description: t("admin.operators.revokeHint", { name }),
          submit: () => revoke.mutateAsync({ username: name }),
        };
      case "twoFactor":
        return {
          title: t("admin.operators.resetTwoFactor"),
          description: t("admin.operators.resetHint", { name }),
          danger: true,
          submit: () => reset.mutateAsync({ username: name }),
        };
    }
  }

  return (
    <AdminPage
      title={t("admin.operators.title")}
      extra={
        <Flex gap={8}>
          <RefreshButton onClick={() => void list.refetch()} loading={list.isFetching} />
          <Button type="primary" onClick={() => setAdding(true)} data-testid="admin-operator-add">
            {t("admin.operators.add")}
          </Button>
        </Flex>
      }
    >
      {list.isError ? (
        <QueryError error={list.error} onRetry={() => void list.refetch()} />
      ) : (
        <Table<OperatorRow>
          rowKey="id"
          size="small"
          loading={list.isPending}
          dataSource={list.data ?? []}
          columns={columns}
          scroll={{ x: 900 }}
          pagination={false}
          onRow={(row) =>
            ({ "data-testid": `admin-operator-${row.username}` }) as React.HTMLAttributes<HTMLElement>
          }
        />
      )}
      <AddOperatorDialog open={adding} onClose={() => setAdding(false)} onAdded={() => void refresh()} />
      <ConfirmActionDialog
        open={Boolean(confirm)}
        title={confirm?.title}
        description={confirm?.description}
        okText={t("admin.operators.apply")}
        danger={confirm?.danger}
        onSubmit={async () => {
          await confirm?.submit();
          await refresh();
        }}
        onClose={() => setPending(undefined)}
      />
    </AdminPage>
  );
}

/** Adds an operator; the generated password is shown once, in the dialog, until it is closed. */
function AddOperatorDialog({
  open,
  onClose,
  onAdded,
}: {
  open: boolean;
  onClose: () => void;
  onAdded: () => void;
}) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const [form] = Form.useForm<{ username: string; role: OperatorRole }>();
  const [error, setError] = useState<string>();
  const add = useMutation(
    trpc.admin.operators.add.mutationOptions({
      meta: { inline: true },
      onSuccess: onAdded,
      onError: (e) => setError(refusalText(e)),
    }),
  );
  const close = () => {
    form.resetFields();
    add.reset();
    setError(undefined);
    onClose();
  };
  const created = add.data;
  return (
    <Modal
      open={open}
      title={t("admin.operators.add")}
      onCancel={close}
      destroyOnHidden
      footer={
        created ? (
          <Button type="primary" onClick={close} data-testid="admin-operator-added-close">
            {t("admin.operators.done")}
          </Button>
        ) : (
          <Space>
            <Button onClick={close}>{t("common.cancel")}</Button>
            <Button
              type="primary"
              loading={add.isPending}
              onClick={() => void form.submit()}
              data-testid="admin-operator-add-submit"
            >
              {t("admin.operators.add")}
            </Button>
          </Space>
        )
      }
    >
      {created ? (
        <Flex vertical gap={12}>
          <Alert
            type="warning"
            showIcon
            title={t("admin.operators.passwordOnce", { name: created.username })}
          />
          <Typography.Text code copyable data-testid="admin-operator-password">
            {created.password}
          </Typography.Text>
        </Flex>
      ) : (
        <Form
          form={form}
          layout="vertical"
          initialValues={{ role: "support" }}
          onFinish={(values) => {
            setError(undefined);
            add.mutate({ username: values.username.trim(), role: values.role });
          }}
        >
          <Form.Item
            name="username"
            label={t("admin.operators.username")}
            rules={[
              {
                required: true,
                pattern: OPERATOR_USERNAME,
                message: t("errors.FIELD_INVALID", { field: t("admin.operators.username") }),
              },
            ]}
          >
            <Input maxLength={63} autoComplete="off" data-testid="admin-operator-username" />
          </Form.Item>
          <Form.Item name="role" label={t("admin.operators.role")} rules={[{ required: true }]}>
            <Select<OperatorRole>
              options={OPERATOR_ROLES.map((role) => ({ value: role, label: t(`admin.role.${role}`) }))}
              data-testid="admin-operator-new-role"
            />
          </Form.Item>
          {error && <Alert type="error" showIcon title={error} data-testid="admin-operator-add-error" />}
        </Form>
      )}
    </Modal>
  );
}
