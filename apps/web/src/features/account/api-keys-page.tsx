import { ApiOutlined, KeyOutlined, SafetyOutlined } from "@ant-design/icons";
import { ZCreateApiKeyRequestSchema } from "@northstar/shared/contracts/apikeys";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  Alert,
  Button,
  Checkbox,
  Flex,
  Form,
  Input,
  Modal,
  Popconfirm,
  Switch,
  Tag,
  Typography,
  theme,
} from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { feedback } from "../../lib/feedback.ts";
import { useSession } from "../../lib/queries.ts";
import { useIsLoggedIn } from "../../lib/session.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { LoginPrompt } from "../common/login-prompt.tsx";
import { Page } from "../common/page.tsx";
import { ErrorState, LoadingState } from "../common/page-states.tsx";
import { fieldRule } from "../funding/amount-rules.ts";
import { digitsOnly, markRefusedField } from "./account-helpers.ts";
import { SettingGroup, SettingRow } from "./setting-row.tsx";

/**
 * /apiKeys: the API keys of the user's trading bots. A key is created with the trade password (and
 * the Google code when bound); its secret is shown once, in a dialog with copy buttons. Keys can be
 * disabled, enabled again, and deleted after a confirmation. Withdrawals are never allowed by key.
 */
export function ApiKeysPage() {
  const { t } = useTranslation();
  const loggedIn = useIsLoggedIn();
  return (
    <Page title={t("nav.apiKeys")} width={680}>
      {loggedIn ? <ApiKeys /> : <LoginPrompt />}
    </Page>
  );
}

interface Created {
  api_key: string;
  secret: string;
}

function ApiKeys() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const list = useQuery(trpc.apiKeys.list.queryOptions());
  const [created, setCreated] = useState<Created | null>(null);
  if (list.isPending) {
    return <LoadingState rows={3} />;
  }
  if (list.isError) {
    return <ErrorState onRetry={() => void list.refetch()} />;
  }
  return (
    <Flex vertical gap={16}>
      <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
        {t("account.apiKeys.intro")}
      </Typography.Paragraph>
      {list.data.length > 0 && (
        <SettingGroup>
          {list.data.map((key) => (
            <KeyRow key={key.id} apiKey={key} />
          ))}
        </SettingGroup>
      )}
      {list.data.length === 0 && (
        <Typography.Text type="secondary">{t("account.apiKeys.none")}</Typography.Text>
      )}
      <CreateForm onCreated={setCreated} />
      <SecretDialog created={created} onClose={() => setCreated(null)} />
    </Flex>
  );
}

type KeyView = {
  id: number;
  label: string;
  key_prefix: string;
  permissions: string[];
  ip_allow_list: string[];
  status: string;
  book: string;
};

function KeyRow({ apiKey }: { apiKey: KeyView }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.apiKeys.list.queryKey() });
  const setEnabled = useMutation(trpc.apiKeys.setEnabled.mutationOptions({ onSuccess: refresh }));
  const remove = useMutation(trpc.apiKeys.delete.mutationOptions({ onSuccess: refresh }));
  const blocked = apiKey.status === "blocked";
  const status = (
    <Tag color={apiKey.status === "active" ? "success" : blocked ? "error" : "default"} variant="filled">
      {t(`account.apiKeys.status_${apiKey.status}`)}
    </Tag>
  );
  const permissions = apiKey.permissions.map((p) => t(`account.apiKeys.permission_${p}`)).join(" · ");
  const ips =
    apiKey.ip_allow_list.length > 0 ? apiKey.ip_allow_list.join(", ") : t("account.apiKeys.anyAddress");
  return (
    <SettingRow
      testId={`api-key-${apiKey.id}`}
      icon={<KeyOutlined />}
      title={`${apiKey.label} · ${apiKey.key_prefix}…`}
      status={status}
      description={`${permissions} · ${ips}${apiKey.book === "demo" ? ` · ${t("account.apiKeys.demoBook")}` : ""}`}
      action={
        <Flex gap={8} align="center">
          <Switch
            size="small"
            checked={apiKey.status === "active"}
            disabled={blocked}
            loading={setEnabled.isPending}
            aria-label={t("account.apiKeys.enabled")}
            onChange={(enabled) => setEnabled.mutate({ id: apiKey.id, enabled })}
            data-testid={`api-key-enabled-${apiKey.id}`}
          />
          <Popconfirm
            title={t("account.apiKeys.deleteConfirm")}
            okText={t("account.apiKeys.delete")}
            cancelText={t("common.cancel")}
            okButtonProps={{ danger: true }}
            onConfirm={() =>
              remove.mutate(
                { id: apiKey.id },
                { onSuccess: () => feedback.success(t("account.apiKeys.deleted")) },
              )
            }
          >
            <Button
              size="small"
              danger
              loading={remove.isPending}
              data-testid={`api-key-delete-${apiKey.id}`}
            >
              {t("account.apiKeys.delete")}
            </Button>
          </Popconfirm>
        </Flex>
      }
    />
  );
}

interface CreateValues {
  label: string;
  spot_trade: boolean;
  ip_allow_list: string;
  trade_password: string;
  google_code?: string;
}

function CreateForm({ onCreated }: { onCreated: (created: Created) => void }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const session = useSession();
  const googleBound = session.data?.google_bound === 1;
  const [form] = Form.useForm<CreateValues>();
  const create = useMutation(trpc.apiKeys.create.mutationOptions());
  const shape = ZCreateApiKeyRequestSchema.shape;
  const submit = (values: CreateValues) =>
    create.mutate(
      { ...values, spot_trade: Boolean(values.spot_trade), ip_allow_list: values.ip_allow_list ?? "" },
      {
        onSuccess: (result) => {
          form.resetFields();
          onCreated({ api_key: result.api_key, secret: result.secret });
          void queryClient.invalidateQueries({ queryKey: trpc.apiKeys.list.queryKey() });
        },
        onError: (error) => markRefusedField(form, error),
      },
    );
  return (
    <Form form={form} layout="vertical" requiredMark={false} onFinish={submit} disabled={create.isPending}>
      <Typography.Title level={5}>{t("account.apiKeys.create")}</Typography.Title>
      <Form.Item
        name="label"
        label={t("fields.label")}
        rules={[fieldRule(shape.label, t, t("fields.label"))]}
      >
        <Input maxLength={40} data-testid="api-key-label" />
      </Form.Item>
      <Form.Item name="spot_trade" valuePropName="checked" extra={t("account.apiKeys.noWithdrawal")}>
        <Checkbox data-testid="api-key-spot-trade">{t("account.apiKeys.permission_spot_trade")}</Checkbox>
      </Form.Item>
      <Form.Item
        name="ip_allow_list"
        label={t("fields.ipAllowList")}
        extra={t("account.apiKeys.ipHint")}
        rules={[fieldRule(shape.ip_allow_list, t, t("fields.ipAllowList"))]}
      >
        <Input.TextArea rows={2} placeholder="203.0.113.7, 198.51.100.0" data-testid="api-key-ips" />
      </Form.Item>
      <Form.Item
        name="trade_password"
        label={t("fields.tradePassword")}
        rules={[fieldRule(shape.trade_password, t, t("fields.tradePassword"))]}
        normalize={digitsOnly(6)}
      >
        <Input.Password
          prefix={<SafetyOutlined />}
          inputMode="numeric"
          maxLength={6}
          data-testid="api-key-trade-password"
        />
      </Form.Item>
      {googleBound && (
        <Form.Item name="google_code" label={t("fields.googleCode")} normalize={digitsOnly(6)}>
          <Input
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            data-testid="api-key-google-code"
          />
        </Form.Item>
      )}
      <Button
        type="primary"
        htmlType="submit"
        icon={<ApiOutlined />}
        loading={create.isPending}
        data-testid="api-key-create"
      >
        {t("account.apiKeys.create")}
      </Button>
    </Form>
  );
}

/** The one time the secret is shown: both values with copy buttons, and a warning to keep them. */
function SecretDialog({ created, onClose }: { created: Created | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const copyTips = [t("common.copy"), t("common.copied")];
  const value = (label: string, text: string, testId: string) => (
    <Flex vertical gap={2}>
      <Typography.Text type="secondary">{label}</Typography.Text>
      <Typography.Text
        strong
        className="ns-break"
        copyable={{ text, tooltips: copyTips }}
        style={{ fontFamily: token.fontFamilyCode }}
        data-testid={testId}
      >
        {text}
      </Typography.Text>
    </Flex>
  );
  return (
    <Modal
      open={created !== null}
      title={t("account.apiKeys.createdTitle")}
      onOk={onClose}
      onCancel={onClose}
      okText={t("account.apiKeys.savedIt")}
      cancelButtonProps={{ style: { display: "none" } }}
      maskClosable={false}
      // The secret leaves the page with the dialog: nothing of it stays in the document, hidden.
      destroyOnHidden
    >
      {created && (
        <Flex vertical gap={12}>
          <Alert type="warning" showIcon title={t("account.apiKeys.secretOnce")} />
          {value(t("account.apiKeys.apiKey"), created.api_key, "api-key-value")}
          {value(t("account.apiKeys.secret"), created.secret, "api-key-secret")}
        </Flex>
      )}
    </Modal>
  );
}
