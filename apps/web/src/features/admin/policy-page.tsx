import { EditOutlined } from "@ant-design/icons";
import { isPolicyKey, POLICY } from "@northstar/shared/policy";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { TableColumnsType } from "antd";
import { Alert, Button, Card, Flex, Form, Input, Modal, Space, Table, Tag, Tooltip, Typography } from "antd";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { feedback } from "../../lib/feedback.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { useOperator } from "./admin-layout.tsx";
import { AdminPage, EmptyText, QueryError, RefreshButton } from "./admin-page.tsx";
import { refusalText } from "./admin-query-client.ts";
import { JsonBlock } from "./json-block.tsx";
import { rowTestId, tableWidth } from "./queue-table.tsx";

interface PolicyRow {
  key: string;
  value: unknown;
  defaultValue: unknown;
  overridden: boolean;
  isPublic: boolean;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Business constants (SPEC section 9) and the choices where the spec disagrees with itself: the
 * value the server enforces now, its default, and whether users are shown it. Administrators may
 * override a value; the server validates it against the key's schema and audits the change.
 */
export function PolicyPage() {
  const { t, i18n } = useTranslation();
  const trpc = useTRPC();
  const operator = useOperator();
  const policy = useQuery(trpc.admin.getPolicy.queryOptions());
  const [editing, setEditing] = useState<PolicyRow | null>(null);
  const canEdit = operator.role === "admin";

  const rows = useMemo<PolicyRow[]>(
    () =>
      Object.entries((policy.data ?? {}) as Record<string, unknown>).map(([key, value]) => {
        const known = isPolicyKey(key) ? POLICY[key] : undefined;
        return {
          key,
          value,
          defaultValue: known?.default,
          overridden: known ? !same(value, known.default) : false,
          isPublic: known?.public ?? false,
        };
      }),
    [policy.data],
  );

  const columns: TableColumnsType<PolicyRow> = [
    {
      title: t("admin.columns.key"),
      dataIndex: "key",
      width: 300,
      fixed: "left",
      render: (key: string) => {
        const about = `admin.policyKey.${key}`;
        return (
          <Flex vertical gap={2}>
            <Typography.Text code copyable={{ text: key }}>
              {key}
            </Typography.Text>
            {i18n.exists(about) && (
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {t(about)}
              </Typography.Text>
            )}
          </Flex>
        );
      },
    },
    {
      title: t("admin.columns.value"),
      dataIndex: "value",
      width: 240,
      render: (value: unknown) => <JsonBlock value={value} />,
    },
    {
      title: t("admin.columns.default"),
      dataIndex: "defaultValue",
      width: 200,
      render: (value: unknown, row) =>
        row.overridden ? (
          <JsonBlock value={value} />
        ) : (
          <Typography.Text type="secondary">{t("admin.policy.same")}</Typography.Text>
        ),
    },
    {
      title: t("fields.status"),
      key: "flags",
      width: 150,
      render: (_, row) => (
        <Space size={4} wrap>
          {row.overridden ? (
            <Tag color="orange">{t("admin.policy.overridden")}</Tag>
          ) : (
            <Tag>{t("admin.policy.default")}</Tag>
          )}
          {row.isPublic && <Tag color="blue">{t("admin.policy.public")}</Tag>}
        </Space>
      ),
    },
    {
      title: t("admin.columns.actions"),
      key: "actions",
      width: 100,
      fixed: "right",
      render: (_, row) => (
        <Tooltip title={canEdit ? undefined : t("admin.policy.adminOnly")}>
          <Button
            size="small"
            icon={<EditOutlined />}
            disabled={!canEdit}
            onClick={() => setEditing(row)}
            data-testid={`admin-policy-edit-${row.key}`}
          >
            {t("common.edit")}
          </Button>
        </Tooltip>
      ),
    },
  ];

  return (
    <AdminPage
      title={t("admin.policy.title")}
      extra={<RefreshButton onClick={() => void policy.refetch()} loading={policy.isFetching} />}
    >
      <Alert type="info" showIcon title={t("admin.policy.note")} />
      <Card styles={{ body: { padding: 0 } }}>
        {policy.isError ? (
          <QueryError error={policy.error} onRetry={() => void policy.refetch()} />
        ) : (
          <Table<PolicyRow>
            rowKey="key"
            size="middle"
            columns={columns}
            dataSource={rows}
            loading={policy.isPending}
            pagination={false}
            scroll={{ x: tableWidth(columns) }}
            onRow={(r) => rowTestId(`admin-policy-row-${r.key}`)}
            locale={{ emptyText: policy.isPending ? " " : <EmptyText /> }}
          />
        )}
      </Card>
      <PolicyEditDialog row={editing} onClose={() => setEditing(null)} />
    </AdminPage>
  );
}

/** Edits one value as JSON: parsed here, validated against the key's schema by the server. */
function PolicyEditDialog({ row, onClose }: { row: PolicyRow | null; onClose: () => void }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<{ json: string }>();
  const [error, setError] = useState<string>();
  const save = useMutation(trpc.admin.setPolicy.mutationOptions({ meta: { inline: true } }));

  useEffect(() => {
    if (row) {
      form.setFieldsValue({ json: JSON.stringify(row.value, null, 2) });
      setError(undefined);
    }
  }, [row, form]);

  const submit = async () => {
    if (!row) {
      return;
    }
    let json: string;
    try {
      json = (await form.validateFields()).json;
    } catch {
      return;
    }
    setError(undefined);
    try {
      await save.mutateAsync({ key: row.key, value: JSON.parse(json) });
      feedback.success(t("admin.policy.saved", { key: row.key }));
      onClose();
    } catch (e) {
      setError(refusalText(e));
    } finally {
      void queryClient.invalidateQueries();
    }
  };

  return (
    <Modal
      open={row !== null}
      title={t("admin.policy.editTitle", { key: row?.key ?? "" })}
      okText={t("common.save")}
      cancelText={t("common.cancel")}
      onOk={submit}
      onCancel={onClose}
      confirmLoading={save.isPending}
      okButtonProps={{ "data-testid": "admin-confirm-ok" }}
      destroyOnHidden
      width={600}
    >
      <Form form={form} layout="vertical" requiredMark={false}>
        <Form.Item
          name="json"
          label={t("admin.policy.jsonLabel")}
          extra={t("admin.policy.jsonHint")}
          rules={[
            {
              validator: async (_, value: string | undefined) => {
                if (!value?.trim()) {
                  throw new Error(t("errors.FIELD_REQUIRED", { field: t("admin.columns.value") }));
                }
                try {
                  JSON.parse(value);
                } catch {
                  throw new Error(t("admin.policy.invalidJson"));
                }
              },
            },
          ]}
        >
          <Input.TextArea
            autoSize={{ minRows: 4, maxRows: 14 }}
            spellCheck={false}
            style={{ fontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace" }}
            onChange={() => setError(undefined)}
            data-testid="admin-policy-json"
          />
        </Form.Item>
        {row?.defaultValue !== undefined && (
          <Flex vertical gap={4} style={{ marginBottom: 12 }}>
            <Flex align="center" justify="space-between">
              <Typography.Text type="secondary">{t("admin.columns.default")}</Typography.Text>
              <Button
                size="small"
                type="link"
                onClick={() => form.setFieldsValue({ json: JSON.stringify(row.defaultValue, null, 2) })}
              >
                {t("admin.policy.useDefault")}
              </Button>
            </Flex>
            <JsonBlock value={row.defaultValue} maxHeight={120} />
          </Flex>
        )}
        {error && <Alert type="error" showIcon title={error} data-testid="admin-action-error" />}
      </Form>
    </Modal>
  );
}
