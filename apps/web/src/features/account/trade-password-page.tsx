import { KeyOutlined, LockOutlined, SafetyOutlined } from "@ant-design/icons";
import { zPassword, zTradePassword } from "@northstar/shared/contracts/common";
import type { TSessionInfo } from "@northstar/shared/contracts/identity";
import { maskEmail, maskPhone } from "@northstar/shared/display";
import { useMutation } from "@tanstack/react-query";
import { Alert, Button, Flex, Form, Input, Radio, Segmented, Space, Typography } from "antd";
import type { PasswordProps } from "antd/es/input";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Navigate, useLocation } from "react-router";
import { feedback } from "../../lib/feedback.ts";
import { sameAs, zodRule } from "../../lib/form-rules.ts";
import { AppLink, useAppNavigate } from "../../lib/navigation.tsx";
import { useSession } from "../../lib/queries.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { CodeField } from "../common/code-field.tsx";
import { Page } from "../common/page.tsx";
import { ErrorState, LoadingState } from "../common/page-states.tsx";
import { digitsOnly, markRefusedField, useInvalidateSession, useReturnPath } from "./account-helpers.ts";

const SET_PATH = "/bindmpwd";
const CHANGE_PATH = "/editPasswordTrade";

/**
 * /bindmpwd sets the first 6-digit transaction password; /editPasswordTrade changes it with the
 * current one or with a code sent to the bound email or phone. Each path sends the user to the
 * other when the password's state does not fit it.
 */
export function TradePasswordPage() {
  const { t } = useTranslation();
  const { pathname, search } = useLocation();
  const session = useSession();
  // Once saved here, the refreshed session must not bounce the user to the other path.
  const [done, setDone] = useState(false);

  if (session.isSuccess && !done) {
    const isSet = session.data.transaction_password === 1;
    if (pathname === SET_PATH && isSet) {
      return <Navigate to={CHANGE_PATH + search} replace />;
    }
    if (pathname === CHANGE_PATH && !isSet) {
      return <Navigate to={SET_PATH + search} replace />;
    }
  }

  return (
    <Page title={pathname === SET_PATH ? t("account.trade.setTitle") : t("account.trade.changeTitle")}>
      {session.isPending ? (
        <LoadingState />
      ) : session.isError ? (
        <ErrorState onRetry={() => void session.refetch()} />
      ) : pathname === SET_PATH ? (
        <SetTradePasswordForm onDone={() => setDone(true)} />
      ) : (
        <ChangeTradePasswordForm session={session.data} onDone={() => setDone(true)} />
      )}
    </Page>
  );
}

/**
 * A password field that accepts only digits, at most 6: the transaction password. Form.Item passes
 * `value` and `onChange` in the props, so they are forwarded to the input.
 */
function SixDigits({
  testId,
  autoComplete = "new-password",
  ...props
}: Omit<PasswordProps, "autoComplete"> & { testId: string; autoComplete?: string }) {
  return (
    <Input.Password
      {...props}
      prefix={<KeyOutlined />}
      inputMode="numeric"
      maxLength={6}
      autoComplete={autoComplete}
      data-testid={testId}
    />
  );
}

function NewTradePasswordFields() {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item
        name="trade_password"
        label={t("account.trade.newPassword")}
        rules={[zodRule(zTradePassword, t, "tradePassword")]}
        normalize={digitsOnly(6)}
        extra={t("account.trade.rule")}
      >
        <SixDigits testId="trade-password" />
      </Form.Item>
      <Form.Item
        name="confirm_password"
        label={t("account.trade.confirmPassword")}
        dependencies={["trade_password"]}
        rules={[zodRule(zTradePassword, t, "tradePassword"), sameAs("trade_password", t)]}
        normalize={digitsOnly(6)}
      >
        <SixDigits testId="trade-confirm" />
      </Form.Item>
    </>
  );
}

interface SetForm {
  login_password: string;
  trade_password: string;
  confirm_password: string;
}

function SetTradePasswordForm({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const [form] = Form.useForm<SetForm>();
  const invalidateSession = useInvalidateSession();
  const go = useAppNavigate();
  const returnPath = useReturnPath();
  const setPassword = useMutation(trpc.identity.setTradePassword.mutationOptions());

  const submit = (values: SetForm) => {
    setPassword.mutate(values, {
      onSuccess: () => {
        onDone();
        feedback.success(t("account.trade.setDone"));
        void invalidateSession();
        go(returnPath, { replace: true });
      },
      onError: (error) => markRefusedField(form, error),
    });
  };

  return (
    <Flex vertical gap={16}>
      <Alert type="info" showIcon title={t("account.trade.intro")} />
      <Form
        form={form}
        layout="vertical"
        requiredMark={false}
        onFinish={submit}
        disabled={setPassword.isPending}
      >
        <Form.Item
          name="login_password"
          label={t("account.fields.loginPassword")}
          rules={[zodRule(zPassword, t, "password")]}
        >
          <Input.Password
            prefix={<LockOutlined />}
            autoComplete="current-password"
            data-testid="trade-login-password"
          />
        </Form.Item>
        <NewTradePasswordFields />
        <Button
          type="primary"
          htmlType="submit"
          block
          loading={setPassword.isPending}
          data-testid="trade-submit"
        >
          {t("common.confirm")}
        </Button>
      </Form>
    </Flex>
  );
}

interface ChangeForm {
  old_trade_password?: string;
  type?: "email" | "phone";
  code?: string;
  trade_password: string;
  confirm_password: string;
}

function ChangeTradePasswordForm({ session, onDone }: { session: TSessionInfo; onDone: () => void }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const [form] = Form.useForm<ChangeForm>();
  const invalidateSession = useInvalidateSession();
  const go = useAppNavigate();
  const returnPath = useReturnPath();
  const [mode, setMode] = useState<"old" | "code">("old");
  const change = useMutation(trpc.identity.changeTradePassword.mutationOptions());

  const channels = [
    ...(session.email ? [{ value: "email" as const, label: maskEmail(session.email) }] : []),
    ...(session.phone
      ? [{ value: "phone" as const, label: `+${session.area_code} ${maskPhone(session.phone)}` }]
      : []),
  ];
  const type = Form.useWatch("type", form) ?? channels[0]?.value;

  const submit = (values: ChangeForm) => {
    const input =
      mode === "old"
        ? {
            mode: "old" as const,
            old_trade_password: values.old_trade_password ?? "",
            trade_password: values.trade_password,
            confirm_password: values.confirm_password,
          }
        : {
            mode: "code" as const,
            type: values.type ?? channels[0]?.value ?? "email",
            code: values.code ?? "",
            trade_password: values.trade_password,
            confirm_password: values.confirm_password,
          };
    change.mutate(input, {
      onSuccess: () => {
        onDone();
        feedback.success(t("account.trade.changeDone"));
        void invalidateSession();
        go(returnPath, { replace: true });
      },
      onError: (error) => markRefusedField(form, error),
    });
  };

  return (
    <Flex vertical gap={16}>
      <Segmented
        block
        value={mode}
        onChange={(value) => setMode(value)}
        options={[
          {
            value: "old" as const,
            label: <span data-testid="trade-mode-old">{t("account.trade.byOld")}</span>,
          },
          {
            value: "code" as const,
            label: <span data-testid="trade-mode-code">{t("account.trade.byCode")}</span>,
          },
        ]}
      />
      <Form
        form={form}
        layout="vertical"
        requiredMark={false}
        onFinish={submit}
        disabled={change.isPending}
        initialValues={{ type: channels[0]?.value }}
      >
        {mode === "old" ? (
          <Form.Item
            name="old_trade_password"
            label={t("fields.oldTradePassword")}
            rules={[zodRule(zTradePassword, t, "oldTradePassword")]}
            normalize={digitsOnly(6)}
            extra={
              <Typography.Link onClick={() => setMode("code")}>{t("account.trade.forgot")}</Typography.Link>
            }
          >
            <SixDigits testId="trade-old-password" autoComplete="current-password" />
          </Form.Item>
        ) : channels.length === 0 ? (
          <Alert
            type="warning"
            showIcon
            style={{ marginBottom: 24 }}
            title={t("errors.BIND_REQUIRED")}
            description={
              <Space wrap>
                <AppLink to="/email">{t("nav.bindEmail")}</AppLink>
                <AppLink to="/mobile">{t("nav.bindPhone")}</AppLink>
              </Space>
            }
          />
        ) : (
          <>
            {channels.length > 1 ? (
              <Form.Item name="type" label={t("account.trade.sendTo")}>
                <Radio.Group options={channels} data-testid="trade-code-channel" />
              </Form.Item>
            ) : (
              <Form.Item label={t("account.trade.sendTo")}>
                <Typography.Text data-testid="trade-code-target">{channels[0]?.label}</Typography.Text>
              </Form.Item>
            )}
            <CodeField
              purpose="tradepwd"
              getTarget={async () => (type ? { type } : null)}
              testId="trade-code"
              sendTestId="trade-send-code"
              prefix={<SafetyOutlined />}
            />
          </>
        )}
        <NewTradePasswordFields />
        <Button
          type="primary"
          htmlType="submit"
          block
          loading={change.isPending}
          disabled={mode === "code" && channels.length === 0}
          data-testid="trade-submit"
        >
          {t("common.confirm")}
        </Button>
      </Form>
    </Flex>
  );
}
