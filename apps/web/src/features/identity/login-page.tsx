import { zPassword } from "@northstar/shared/contracts/common";
import { useQueryClient } from "@tanstack/react-query";
import { Divider, Flex, Form, Input, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useLocation, useNavigate, useSearchParams } from "react-router";
import { zodRule } from "../../lib/form-rules.ts";
import { legacyCall } from "../../lib/legacy.ts";
import { AppLink } from "../../lib/navigation.tsx";
import { languageStore, tokenStore } from "../../lib/session.ts";
import { Page } from "../common/page.tsx";
import { DemoEntry } from "../demo/demo-entry.tsx";
import { WalletLoginButton } from "../wallets/wallet-login-button.tsx";
import { AccountField, AccountTypeTabs } from "./account-field.tsx";
import { type AccountType, type AccountValues, accountPayload } from "./account-type.ts";
import { Intro } from "./auth-intro.tsx";
import { safeRedirect, showServerError } from "./auth-rules.ts";
import { guessRegion } from "./country-list.ts";
import { SubmitButton } from "./submit-button.tsx";
import { useSubmitLock } from "./use-submit-lock.ts";

interface LoginValues extends AccountValues {
  password?: string;
}

/** What the reset-password page hands over, so the account is already filled in. */
export interface LoginPrefill extends AccountValues {
  type: AccountType;
}

function readPrefill(state: unknown): LoginPrefill | undefined {
  const prefill = (state as { prefill?: LoginPrefill } | null)?.prefill;
  return prefill && (prefill.type === "email" || prefill.type === "phone") ? prefill : undefined;
}

/**
 * /login: email, or area code and phone number, and the password (web/userLogin). On success the
 * token is stored, cached queries refetch with it, and the user returns to the page that sent them
 * here (`redirect`, same-site paths only) or to the home page.
 */
export function LoginPage() {
  const { t } = useTranslation();
  const [form] = Form.useForm<LoginValues>();
  const navigate = useNavigate();
  const location = useLocation();
  const [params] = useSearchParams();
  const queryClient = useQueryClient();
  const [prefill] = useState(() => readPrefill(location.state));
  const [type, setType] = useState<AccountType>(prefill?.type ?? "email");
  const [initialValues] = useState<LoginValues>(() => ({
    region: guessRegion(languageStore.get()),
    ...prefill,
  }));
  const [submitting, guard] = useSubmitLock();

  const submit = (values: LoginValues) =>
    guard(async () => {
      try {
        const data = await legacyCall<{ token: string }>("userLogin", {
          ...accountPayload(type, values),
          password: values.password ?? "",
        });
        tokenStore.set(data.token);
        // Queries cached while logged out refetch with the new token.
        void queryClient.invalidateQueries();
        void navigate(safeRedirect(params.get("redirect")), { replace: true });
      } catch (error) {
        showServerError(form, error, type);
      }
    });

  return (
    <Page title={t("nav.login")} width={480} back={false}>
      <Intro>{t("auth.login.subtitle")}</Intro>
      <AccountTypeTabs value={type} onChange={setType} testIdPrefix="login" />
      <Form<LoginValues>
        form={form}
        name="login"
        layout="vertical"
        requiredMark={false}
        initialValues={initialValues}
        onFinish={submit}
        scrollToFirstError
      >
        <AccountField type={type} testIdPrefix="login" />
        <Form.Item name="password" label={t("fields.password")} rules={[zodRule(zPassword, t, "password")]}>
          <Input.Password
            name="password"
            autoComplete="current-password"
            placeholder={t("auth.placeholders.password")}
            maxLength={128}
            data-testid="login-password"
          />
        </Form.Item>
        <Flex justify="flex-end" style={{ marginTop: -12, marginBottom: 16 }}>
          <AppLink to="/forgetpwd">
            <span data-testid="login-forgot">{t("auth.login.forgot")}</span>
          </AppLink>
        </Flex>
        <Form.Item style={{ marginBottom: 16 }}>
          <SubmitButton loading={submitting} testId="login-submit">
            {t("nav.login")}
          </SubmitButton>
        </Form.Item>
      </Form>
      <Divider plain>{t("auth.login.or")}</Divider>
      <DemoEntry />
      <WalletLoginButton />
      <Flex justify="center" gap={4} wrap style={{ marginTop: 16 }}>
        <Typography.Text type="secondary">{t("auth.login.noAccount")}</Typography.Text>
        <AppLink to="/register">
          <span data-testid="login-register">{t("auth.login.createAccount")}</span>
        </AppLink>
      </Flex>
    </Page>
  );
}
