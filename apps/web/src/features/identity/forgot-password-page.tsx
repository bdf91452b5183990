import type { TSessionInfo } from "@northstar/shared/contracts/identity";
import { useQueryClient } from "@tanstack/react-query";
import { Flex, Form, Radio, Typography } from "antd";
import { type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate, useSearchParams } from "react-router";
import { feedback } from "../../lib/feedback.ts";
import { legacyCall } from "../../lib/legacy.ts";
import { AppLink } from "../../lib/navigation.tsx";
import { usePolicy } from "../../lib/policy.ts";
import { useSession } from "../../lib/queries.ts";
import { clearSession, languageStore, useIsLoggedIn } from "../../lib/session.ts";
import { CodeField } from "../common/code-field.tsx";
import { Page } from "../common/page.tsx";
import { ErrorState, LoadingState } from "../common/page-states.tsx";
import { AccountField, AccountTypeTabs } from "./account-field.tsx";
import { type AccountType, type AccountValues, accountFieldNames, accountPayload } from "./account-type.ts";
import { Intro } from "./auth-intro.tsx";
import { showServerError } from "./auth-rules.ts";
import { BindRequired } from "./bind-required.tsx";
import { guessRegion } from "./country-list.ts";
import type { LoginPrefill } from "./login-page.tsx";
import { NewPasswordFields } from "./new-password-fields.tsx";
import { SubmitButton } from "./submit-button.tsx";
import { useSubmitLock } from "./use-submit-lock.ts";

interface ResetValues extends AccountValues {
  code?: string;
  password?: string;
  confirm_password?: string;
}

interface ChangeByCodeValues {
  type?: AccountType;
  code?: string;
  password?: string;
  confirm_password?: string;
}

/**
 * /forgetpwd (and /verificationCode): reset the login password with a code sent to the account's
 * email or phone. With `?type=changepwd` and a session it is "change login password by code",
 * the code going to the user's own bound email or phone.
 */
export function ForgotPasswordPage() {
  const [params] = useSearchParams();
  const loggedIn = useIsLoggedIn();
  // Without a session there is no bound contact to send to: the reset form is what the user needs.
  return params.get("type") === "changepwd" && loggedIn ? <ChangeByCode /> : <ResetByCode />;
}

function ResetByCode() {
  const { t } = useTranslation();
  const [form] = Form.useForm<ResetValues>();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const session = useSession();
  const policy = usePolicy();
  const [type, setType] = useState<AccountType>("email");
  const [initialValues] = useState<ResetValues>(() => ({ region: guessRegion(languageStore.get()) }));
  const [submitting, guard] = useSubmitLock();

  const getCodeTarget = async () => {
    try {
      await form.validateFields(accountFieldNames(type));
    } catch {
      return null;
    }
    return accountPayload(type, form.getFieldsValue(true));
  };

  const submit = () =>
    guard(async () => {
      const values: ResetValues = form.getFieldsValue(true);
      const account = accountPayload(type, values);
      try {
        await legacyCall("updatePassword", {
          mode: "reset",
          ...account,
          code: values.code?.trim() ?? "",
          password: values.password ?? "",
          confirm_password: values.confirm_password ?? "",
        });
      } catch (error) {
        showServerError(form, error, type);
        return;
      }
      // A reset ends every session of that account; if it is the one signed in here, drop the token.
      const me = session.data;
      const own =
        me &&
        (type === "email"
          ? me.email !== "" && me.email === account.account.toLowerCase()
          : me.phone === account.account && me.area_code === account.area_code);
      if (own) {
        clearSession();
        queryClient.clear();
      }
      feedback.success(t("auth.forgot.done"));
      const prefill: LoginPrefill =
        type === "email"
          ? { type, email: values.email }
          : { type, region: values.region, phone: values.phone };
      void navigate("/login", { replace: true, state: { prefill } });
    });

  return (
    <Page title={t("nav.forgetpwd")} width={520}>
      <Intro>{t("auth.forgot.subtitle")}</Intro>
      <AccountTypeTabs value={type} onChange={setType} testIdPrefix="forgot" />
      <Form<ResetValues>
        form={form}
        name="forgot"
        layout="vertical"
        requiredMark={false}
        initialValues={initialValues}
        onFinish={submit}
        scrollToFirstError
      >
        <AccountField type={type} testIdPrefix="forgot" />
        <CodeField
          placeholder={t("auth.placeholders.code")}
          purpose="reset"
          getTarget={getCodeTarget}
          testId="forgot-code"
        />
        <NewPasswordFields
          min={policy["identity.loginPassword.minLength"]}
          max={policy["identity.loginPassword.maxLength"]}
          testIdPrefix="forgot"
          label={t("fields.newPassword")}
        />
        <Form.Item style={{ marginBottom: 16 }}>
          <SubmitButton loading={submitting} testId="forgot-submit">
            {t("auth.forgot.submit")}
          </SubmitButton>
        </Form.Item>
      </Form>
      <Flex justify="center">
        <AppLink to="/login">
          <span data-testid="forgot-login">{t("auth.forgot.backToLogin")}</span>
        </AppLink>
      </Flex>
    </Page>
  );
}

function ChangeByCode() {
  const { t } = useTranslation();
  const session = useSession();
  let body: ReactNode;
  if (session.isPending) {
    body = <LoadingState />;
  } else if (!session.data) {
    body = <ErrorState onRetry={() => void session.refetch()} />;
  } else if (!session.data.email && !session.data.phone) {
    body = <BindRequired />;
  } else {
    body = <ChangeByCodeForm me={session.data} />;
  }
  return (
    <Page title={t("nav.changePassword")} width={520}>
      {body}
    </Page>
  );
}

/** "ab***@example.com": enough to recognise one's own address, not enough to read it off a screen. */
function maskEmail(email: string): string {
  const at = email.lastIndexOf("@");
  if (at < 1) {
    return email;
  }
  return `${email.slice(0, Math.min(2, at))}***${email.slice(at)}`;
}

function ChangeByCodeForm({ me }: { me: TSessionInfo }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<ChangeByCodeValues>();
  const navigate = useNavigate();
  const policy = usePolicy();
  const [submitting, guard] = useSubmitLock();
  const bound: { type: AccountType; label: string }[] = [];
  if (me.email) {
    bound.push({ type: "email", label: maskEmail(me.email) });
  }
  if (me.phone) {
    bound.push({ type: "phone", label: `+${me.area_code} ${me.phone_mask}` });
  }
  const [initialValues] = useState<ChangeByCodeValues>(() => ({ type: bound[0]?.type }));

  const submit = () =>
    guard(async () => {
      const values: ChangeByCodeValues = form.getFieldsValue(true);
      try {
        await legacyCall("updatePassword", {
          mode: "changepwd",
          type: values.type,
          code: values.code?.trim() ?? "",
          password: values.password ?? "",
          confirm_password: values.confirm_password ?? "",
        });
      } catch (error) {
        showServerError(form, error);
        return;
      }
      feedback.success(t("api.passwordUpdated"));
      void navigate("/security", { replace: true });
    });

  return (
    <>
      <Intro>{t("auth.changeByCode.subtitle")}</Intro>
      <Form<ChangeByCodeValues>
        form={form}
        name="changepwd"
        layout="vertical"
        requiredMark={false}
        initialValues={initialValues}
        onFinish={submit}
        scrollToFirstError
      >
        <Form.Item name="type" label={t("auth.changeByCode.sendTo")}>
          <Radio.Group style={{ width: "100%" }}>
            <Flex vertical gap={8}>
              {bound.map((b) => (
                <Radio key={b.type} value={b.type} data-testid={`changepwd-type-${b.type}`}>
                  <Typography.Text type="secondary">{t(`auth.tabs.${b.type}`)}</Typography.Text>{" "}
                  <Typography.Text>{b.label}</Typography.Text>
                </Radio>
              ))}
            </Flex>
          </Radio.Group>
        </Form.Item>
        <CodeField
          placeholder={t("auth.placeholders.code")}
          purpose="changepwd"
          getTarget={async () => ({ type: form.getFieldValue("type") ?? "email" })}
          testId="changepwd-code"
        />
        <NewPasswordFields
          min={policy["identity.loginPassword.minLength"]}
          max={policy["identity.loginPassword.maxLength"]}
          testIdPrefix="changepwd"
          label={t("fields.newPassword")}
        />
        <Typography.Paragraph type="secondary">{t("auth.change.otherSessions")}</Typography.Paragraph>
        <Form.Item style={{ marginBottom: 0 }}>
          <SubmitButton loading={submitting} testId="changepwd-submit">
            {t("common.confirm")}
          </SubmitButton>
        </Form.Item>
      </Form>
    </>
  );
}
