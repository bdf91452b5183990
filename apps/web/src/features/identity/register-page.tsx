import { ZRegisterRequestSchema } from "@northstar/shared/contracts/identity";
import { CONTENT_PAGE } from "@northstar/shared/routes";
import { useQueryClient } from "@tanstack/react-query";
import { Checkbox, Flex, Form, type FormRule, Input, Typography } from "antd";
import { useState } from "react";
import { Trans, useTranslation } from "react-i18next";
import { Link, useNavigate, useSearchParams } from "react-router";
import { zodRule } from "../../lib/form-rules.ts";
import { legacyCall } from "../../lib/legacy.ts";
import { AppLink } from "../../lib/navigation.tsx";
import { usePolicy } from "../../lib/policy.ts";
import { languageStore, tokenStore } from "../../lib/session.ts";
import { CodeField } from "../common/code-field.tsx";
import { Page } from "../common/page.tsx";
import { AccountField, AccountTypeTabs } from "./account-field.tsx";
import { type AccountType, type AccountValues, accountFieldNames, accountPayload } from "./account-type.ts";
import { Intro } from "./auth-intro.tsx";
import { showServerError } from "./auth-rules.ts";
import { guessRegion } from "./country-list.ts";
import { NationalitySelect } from "./country-selects.tsx";
import { NewPasswordFields } from "./new-password-fields.tsx";
import { SubmitButton } from "./submit-button.tsx";
import { useSubmitLock } from "./use-submit-lock.ts";

interface RegisterValues extends AccountValues {
  code?: string;
  password?: string;
  confirm_password?: string;
  nationality?: string;
  invite_code?: string;
  agree?: boolean;
}

interface Draft extends RegisterValues {
  type?: AccountType;
}

/*
 * SPEC section 2: /register is kept alive. The route remounts the page, so what the user has typed is
 * kept here: in memory for the life of the tab, and (without the passwords) in sessionStorage so a
 * reload keeps it too. Reading the agreement and coming back therefore loses nothing. A draft whose
 * sessionStorage copy is gone (logout clears it) is discarded, passwords included.
 */
const DRAFT_KEY = "register.draft";
const STORED_FIELDS = ["type", "email", "region", "phone", "code", "nationality", "invite_code"] as const;
let memoryDraft: Draft | undefined;

function loadDraft(): Draft {
  let stored: Record<string, unknown> | null = null;
  try {
    stored = JSON.parse(sessionStorage.getItem(DRAFT_KEY) ?? "null") as Record<string, unknown> | null;
  } catch {
    stored = null;
  }
  if (!stored || typeof stored !== "object") {
    memoryDraft = undefined;
    return {};
  }
  const draft: Record<string, unknown> = {};
  for (const key of STORED_FIELDS) {
    if (typeof stored[key] === "string") {
      draft[key] = stored[key];
    }
  }
  if (draft.type !== "email" && draft.type !== "phone") {
    delete draft.type;
  }
  draft.agree = stored.agree === true;
  return {
    ...(draft as Draft),
    ...(memoryDraft
      ? { password: memoryDraft.password, confirm_password: memoryDraft.confirm_password }
      : {}),
  };
}

function saveDraft(draft: Draft): void {
  memoryDraft = draft;
  const stored: Record<string, unknown> = { agree: draft.agree === true };
  for (const key of STORED_FIELDS) {
    if (typeof draft[key] === "string") {
      stored[key] = draft[key];
    }
  }
  try {
    sessionStorage.setItem(DRAFT_KEY, JSON.stringify(stored));
  } catch {
    // Storage full or disabled: the in-memory draft still covers navigation within the app.
  }
}

function clearDraft(): void {
  memoryDraft = undefined;
  sessionStorage.removeItem(DRAFT_KEY);
}

/**
 * /register: email or phone, a verification code sent to it, the password twice, nationality (fixed
 * once registered), an invitation code (optional or required by policy; prefilled from `?code=`) and
 * the user agreement (web/userRegister). On success the user is logged in and sent home.
 */
export function RegisterPage() {
  const { t } = useTranslation();
  const [form] = Form.useForm<RegisterValues>();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const queryClient = useQueryClient();
  const policy = usePolicy();
  const min = policy["identity.loginPassword.minLength"];
  const max = policy["identity.loginPassword.maxLength"];
  const inviteRequired = policy["identity.inviteCode.required"];

  const [initial] = useState<Draft>(() => {
    const draft = loadDraft();
    const linkCode = (params.get("code") ?? "").trim();
    return {
      region: guessRegion(languageStore.get()),
      ...draft,
      // An invitation link fills the code unless the user already typed one here.
      invite_code: draft.invite_code || linkCode || undefined,
    };
  });
  const [type, setType] = useState<AccountType>(initial.type ?? "email");
  const [submitting, guard] = useSubmitLock();

  const remember = (nextType: AccountType = type) =>
    saveDraft({ ...form.getFieldsValue(true), type: nextType });

  const switchType = (next: AccountType) => {
    setType(next);
    remember(next);
  };

  const getCodeTarget = async () => {
    try {
      await form.validateFields(accountFieldNames(type));
    } catch {
      return null;
    }
    return accountPayload(type, form.getFieldsValue(true));
  };

  const inviteRules: FormRule[] = [zodRule(ZRegisterRequestSchema.shape.invite_code, t, "inviteCode")];
  if (inviteRequired) {
    inviteRules.unshift({
      validator: async (_, value: string | undefined) => {
        if (!value?.trim()) {
          throw new Error(t("errors.INVITE_CODE_REQUIRED"));
        }
      },
    });
  }

  const submit = () =>
    guard(async () => {
      const values: RegisterValues = form.getFieldsValue(true);
      try {
        const data = await legacyCall<{ token: string; wap_token: string }>("userRegister", {
          ...accountPayload(type, values),
          code: values.code?.trim() ?? "",
          password: values.password ?? "",
          confirm_password: values.confirm_password ?? "",
          nationality: values.nationality ?? "",
          invite_code: values.invite_code?.trim() || undefined,
          agree: values.agree === true,
        });
        clearDraft();
        tokenStore.set(data.token || data.wap_token);
        void queryClient.invalidateQueries();
        void navigate("/", { replace: true });
      } catch (error) {
        showServerError(form, error, type);
      }
    });

  return (
    <Page title={t("auth.register.title")} width={520} back={false}>
      <Intro>{t("auth.register.subtitle")}</Intro>
      <AccountTypeTabs value={type} onChange={switchType} testIdPrefix="register" />
      <Form<RegisterValues>
        form={form}
        name="register"
        layout="vertical"
        requiredMark={false}
        initialValues={initial}
        onValuesChange={() => remember()}
        onFinish={submit}
        scrollToFirstError
      >
        <AccountField type={type} testIdPrefix="register" newAccount />
        <CodeField
          placeholder={t("auth.placeholders.code")}
          purpose="register"
          getTarget={getCodeTarget}
          testId="register-code"
        />
        <NewPasswordFields min={min} max={max} testIdPrefix="register" />
        <Form.Item
          name="nationality"
          label={t("fields.nationality")}
          rules={[zodRule(ZRegisterRequestSchema.shape.nationality, t, "nationality")]}
          extra={t("errors.NATIONALITY_LOCKED")}
        >
          <NationalitySelect testId="register-nationality" />
        </Form.Item>
        <Form.Item
          name="invite_code"
          label={inviteRequired ? t("fields.inviteCode") : t("auth.register.inviteOptional")}
          rules={inviteRules}
          validateFirst
        >
          <Input
            name="invite_code"
            autoComplete="off"
            maxLength={16}
            placeholder={t("auth.placeholders.inviteCode")}
            data-testid="register-invite"
          />
        </Form.Item>
        <Form.Item
          name="agree"
          valuePropName="checked"
          rules={[zodRule(ZRegisterRequestSchema.shape.agree, t, "agreement")]}
        >
          <Checkbox data-testid="register-agree">
            <Trans
              t={t}
              i18nKey="auth.register.agree"
              components={{
                terms: (
                  <Link to={`/text?id=${CONTENT_PAGE.userAgreement}`} data-testid="register-agreement-link" />
                ),
              }}
            />
          </Checkbox>
        </Form.Item>
        <Form.Item style={{ marginBottom: 16 }}>
          <SubmitButton loading={submitting} testId="register-submit">
            {t("nav.register")}
          </SubmitButton>
        </Form.Item>
      </Form>
      <Flex justify="center" gap={4} wrap>
        <Typography.Text type="secondary">{t("auth.register.haveAccount")}</Typography.Text>
        <AppLink to="/login">
          <span data-testid="register-login">{t("nav.login")}</span>
        </AppLink>
      </Flex>
    </Page>
  );
}
