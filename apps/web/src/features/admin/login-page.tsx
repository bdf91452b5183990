import { LockOutlined, SafetyOutlined, UserOutlined } from "@ant-design/icons";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Card, Flex, Form, Input, Typography, theme } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Navigate, useNavigate, useSearchParams } from "react-router";
import { toApiError, useTRPC } from "../../lib/trpc.ts";
import { HeaderTools } from "./admin-layout.tsx";
import { refusalText } from "./admin-query-client.ts";
import { operatorTokenStore, useOperatorToken } from "./operator-session.ts";

interface LoginForm {
  username: string;
  password: string;
  code?: string;
}

/** Only paths inside the back office are followed after sign-in. */
function safeRedirect(value: string | null): string {
  return value && /^\/admin(\/|$)/.test(value) && !value.startsWith("/admin/login") ? value : "/admin";
}

/** /admin/login: operator username and password; the token is kept for this tab only. */
export function AdminLoginPage() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const operatorToken = useOperatorToken();
  const [error, setError] = useState<string>();
  // Shown once the server says this operator signs in with a code from an authenticator app.
  const [needsCode, setNeedsCode] = useState(false);
  const target = safeRedirect(params.get("redirect"));

  const login = useMutation(
    trpc.admin.login.mutationOptions({
      meta: { inline: true },
      onSuccess: (data) => {
        queryClient.clear();
        queryClient.setQueryData(trpc.admin.me.queryKey(), {
          ...data.operator,
          status: "active" as const,
          enrolmentRequired: data.enrolmentRequired,
        });
        operatorTokenStore.set(data.token);
        // A role that needs two-factor sign-in goes to enrolment first.
        void navigate(data.enrolmentRequired ? "/admin/security" : target, { replace: true });
      },
      onError: (e) => {
        const code = toApiError(e).errorCode;
        if (
          code === "OPERATOR_TOTP_REQUIRED" ||
          code === "OPERATOR_TOTP_WRONG" ||
          code === "OPERATOR_TOTP_USED"
        ) {
          setNeedsCode(true);
        }
        // Lockouts and throttling come with the server's text, which names the minutes left.
        setError(refusalText(e));
      },
    }),
  );

  // Only an operator already signed in on arrival is sent on from here: after a sign-in on this page
  // its onSuccess navigates once, and a second navigation would remount the page it went to.
  if (operatorToken && login.isIdle) {
    return <Navigate to={target} replace />;
  }

  return (
    <Flex vertical style={{ minHeight: "100vh", background: token.colorBgLayout }}>
      <Flex justify="flex-end" style={{ padding: "12px 16px" }}>
        <HeaderTools />
      </Flex>
      <Flex flex={1} align="center" justify="center" style={{ padding: 16 }}>
        <Card style={{ width: "100%", maxWidth: 400 }}>
          <Flex vertical align="center" gap={4} style={{ marginBottom: 24 }}>
            <img src="/logo.svg" alt="" width={40} height={40} />
            <Typography.Title level={3} style={{ margin: 0 }}>
              {t("admin.login.title")}
            </Typography.Title>
            <Typography.Text type="secondary" style={{ textAlign: "center" }}>
              {t("admin.login.subtitle")}
            </Typography.Text>
          </Flex>
          <Form<LoginForm>
            layout="vertical"
            requiredMark={false}
            onFinish={(values) => {
              setError(undefined);
              login.mutate({
                username: values.username.trim(),
                password: values.password,
                code: values.code?.trim() || undefined,
              });
            }}
            onValuesChange={() => setError(undefined)}
          >
            <Form.Item
              name="username"
              label={t("fields.username")}
              rules={[
                {
                  required: true,
                  whitespace: true,
                  message: t("errors.FIELD_REQUIRED", { field: t("fields.username") }),
                },
              ]}
            >
              <Input
                prefix={<UserOutlined />}
                autoComplete="username"
                maxLength={64}
                autoFocus
                data-testid="admin-login-username"
              />
            </Form.Item>
            <Form.Item
              name="password"
              label={t("fields.password")}
              rules={[
                { required: true, message: t("errors.FIELD_REQUIRED", { field: t("fields.password") }) },
              ]}
            >
              <Input.Password
                prefix={<LockOutlined />}
                autoComplete="current-password"
                maxLength={128}
                data-testid="admin-login-password"
              />
            </Form.Item>
            {needsCode && (
              <Form.Item
                name="code"
                label={t("admin.login.code")}
                extra={t("admin.login.codeHint")}
                rules={[{ required: true, pattern: /^\d{6}$/, message: t("errors.OPERATOR_TOTP_REQUIRED") }]}
              >
                <Input
                  prefix={<SafetyOutlined />}
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  maxLength={6}
                  autoFocus
                  data-testid="admin-login-code"
                />
              </Form.Item>
            )}
            {error && (
              <Alert
                type="error"
                showIcon
                title={error}
                style={{ marginBottom: 16 }}
                data-testid="admin-login-error"
              />
            )}
            <Button
              type="primary"
              htmlType="submit"
              block
              size="large"
              loading={login.isPending}
              data-testid="admin-login-submit"
            >
              {t("admin.login.submit")}
            </Button>
          </Form>
        </Card>
      </Flex>
    </Flex>
  );
}
