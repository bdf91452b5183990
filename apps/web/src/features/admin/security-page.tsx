import { SafetyOutlined } from "@ant-design/icons";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { TableColumnsType } from "antd";
import { Alert, App, Button, Card, Flex, Form, Input, Table, Tag, Typography } from "antd";
import { QRCodeSVG } from "qrcode.react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useTRPC } from "../../lib/trpc.ts";
import { useOperator } from "./admin-layout.tsx";
import { AdminPage, EmptyText, QueryError, RefreshButton } from "./admin-page.tsx";
import { refusalText } from "./admin-query-client.ts";
import type { AdminOutputs } from "./admin-types.ts";
import { DateTime } from "./date-time.tsx";
import { JsonBlock } from "./json-block.tsx";

type SessionRow = AdminOutputs["account"]["sessions"][number];
type ActionRow = AdminOutputs["account"]["actions"][number];

/**
 * /admin/security: the operator's own account. Two-factor sign-in (enrolment with a QR code; the
 * finance and administrator roles must enrol before anything else), the live sessions (each can be
 * ended), and the operator's own recent actions from the audit log.
 */
export function SecurityPage() {
  const { t } = useTranslation();
  const operator = useOperator();
  return (
    <AdminPage title={t("admin.security.title")}>
      {operator.enrolmentRequired && (
        <Alert
          type="warning"
          showIcon
          title={t("errors.OPERATOR_ENROLMENT_REQUIRED")}
          data-testid="admin-enrol-required"
        />
      )}
      <TwoFactorCard />
      {!operator.enrolmentRequired && (
        <>
          <SessionsCard />
          <ActionsCard />
        </>
      )}
    </AdminPage>
  );
}

function TwoFactorCard() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const status = useQuery(trpc.admin.account.twoFactor.queryOptions());
  const [error, setError] = useState<string>();
  const start = useMutation(trpc.admin.account.startTwoFactor.mutationOptions({ meta: { inline: true } }));
  const confirm = useMutation(
    trpc.admin.account.confirmTwoFactor.mutationOptions({
      meta: { inline: true },
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.admin.me.queryKey() });
        await queryClient.invalidateQueries({ queryKey: trpc.admin.account.twoFactor.queryKey() });
      },
      onError: (e) => setError(refusalText(e)),
    }),
  );

  return (
    <Card title={t("admin.security.twoFactor")} data-testid="admin-security-2fa">
      {status.isPending ? null : status.isError ? (
        <QueryError error={status.error} onRetry={() => void status.refetch()} />
      ) : status.data.enrolled ? (
        <Flex gap={8} align="center">
          <Tag color="green" icon={<SafetyOutlined />} data-testid="admin-2fa-on">
            {t("admin.security.enrolled")}
          </Tag>
          <Typography.Text type="secondary">{t("admin.security.enrolledNote")}</Typography.Text>
        </Flex>
      ) : !start.data ? (
        <Flex vertical gap={12} align="flex-start">
          <Typography.Text>{t("admin.security.intro")}</Typography.Text>
          <Button
            type="primary"
            loading={start.isPending}
            onClick={() => start.mutate()}
            data-testid="admin-2fa-start"
          >
            {t("admin.security.start")}
          </Button>
          {start.isError && <Alert type="error" showIcon title={refusalText(start.error)} />}
        </Flex>
      ) : (
        <Flex gap={24} wrap align="flex-start">
          <div style={{ background: "#fff", padding: 8, lineHeight: 0 }}>
            <QRCodeSVG value={start.data.uri} size={168} data-testid="admin-2fa-qr" />
          </div>
          <Flex vertical gap={8} style={{ minWidth: 240, flex: 1 }}>
            <Typography.Text>{t("admin.security.scan")}</Typography.Text>
            <Typography.Text type="secondary">{t("admin.security.manual")}</Typography.Text>
            <Typography.Text code copyable data-testid="admin-2fa-secret">
              {start.data.secret}
            </Typography.Text>
            <Form<{ code: string }>
              layout="inline"
              onFinish={(values) => {
                setError(undefined);
                confirm.mutate({ code: values.code.trim() });
              }}
            >
              <Form.Item
                name="code"
                rules={[{ required: true, pattern: /^\d{6}$/, message: t("errors.OPERATOR_TOTP_REQUIRED") }]}
              >
                <Input
                  placeholder={t("admin.login.code")}
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  maxLength={6}
                  data-testid="admin-2fa-code"
                />
              </Form.Item>
              <Button
                type="primary"
                htmlType="submit"
                loading={confirm.isPending}
                data-testid="admin-2fa-confirm"
              >
                {t("admin.security.confirm")}
              </Button>
            </Form>
            {error && <Alert type="error" showIcon title={error} data-testid="admin-2fa-error" />}
          </Flex>
        </Flex>
      )}
    </Card>
  );
}

function SessionsCard() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const { message } = App.useApp();
  const sessions = useQuery(trpc.admin.account.sessions.queryOptions());
  const revoke = useMutation(
    trpc.admin.account.revokeSession.mutationOptions({
      meta: { inline: true },
      onSuccess: () => {
        void sessions.refetch();
        void message.success(t("admin.security.revoked"));
      },
      onError: (e) => void message.error(refusalText(e)),
    }),
  );
  const columns: TableColumnsType<SessionRow> = [
    {
      title: t("admin.security.signedIn"),
      dataIndex: "createdAt",
      width: 150,
      render: (value: string) => <DateTime value={value} stacked />,
    },
    {
      title: t("admin.security.address"),
      dataIndex: "address",
      width: 140,
      render: (value: string | null) => <Typography.Text code>{value ?? "—"}</Typography.Text>,
    },
    {
      title: t("admin.security.device"),
      dataIndex: "userAgent",
      ellipsis: true,
      render: (value: string | null) => value ?? "—",
    },
    {
      title: t("admin.security.expires"),
      dataIndex: "expiresAt",
      width: 150,
      render: (value: string) => <DateTime value={value} stacked />,
    },
    {
      key: "action",
      width: 130,
      render: (_: unknown, row) =>
        row.current ? (
          <Tag color="blue">{t("admin.security.current")}</Tag>
        ) : (
          <Button
            size="small"
            danger
            loading={revoke.isPending && revoke.variables?.id === row.id}
            onClick={() => revoke.mutate({ id: row.id })}
            data-testid={`admin-session-revoke-${row.id}`}
          >
            {t("admin.security.revoke")}
          </Button>
        ),
    },
  ];
  return (
    <Card
      title={t("admin.security.sessions")}
      extra={<RefreshButton onClick={() => void sessions.refetch()} loading={sessions.isFetching} />}
    >
      {sessions.isError ? (
        <QueryError error={sessions.error} onRetry={() => void sessions.refetch()} />
      ) : (
        <Table<SessionRow>
          rowKey="id"
          size="small"
          loading={sessions.isPending}
          columns={columns}
          dataSource={sessions.data}
          pagination={false}
          scroll={{ x: 640 }}
          locale={{ emptyText: <EmptyText /> }}
          data-testid="admin-sessions"
        />
      )}
    </Card>
  );
}

function ActionsCard() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const actions = useQuery(trpc.admin.account.actions.queryOptions());
  const columns: TableColumnsType<ActionRow> = [
    {
      title: t("admin.columns.time"),
      dataIndex: "createdAt",
      width: 150,
      render: (value: string) => <DateTime value={value} stacked />,
    },
    {
      title: t("admin.columns.action"),
      dataIndex: "action",
      width: 220,
      render: (value: string) => <Tag color="blue">{value}</Tag>,
    },
    {
      title: t("admin.columns.subject"),
      dataIndex: "subject",
      width: 160,
      render: (value: string | null) => value ?? <Typography.Text type="secondary">—</Typography.Text>,
    },
    {
      title: t("admin.columns.details"),
      dataIndex: "details",
      render: (value: unknown) => <JsonBlock value={value} />,
    },
  ];
  return (
    <Card title={t("admin.security.actions")}>
      <Typography.Paragraph type="secondary">{t("admin.security.actionsNote")}</Typography.Paragraph>
      {actions.isError ? (
        <QueryError error={actions.error} onRetry={() => void actions.refetch()} />
      ) : (
        <Table<ActionRow>
          rowKey="id"
          size="small"
          loading={actions.isPending}
          columns={columns}
          dataSource={actions.data}
          pagination={false}
          scroll={{ x: 720 }}
          locale={{ emptyText: <EmptyText /> }}
          data-testid="admin-my-actions"
        />
      )}
    </Card>
  );
}
