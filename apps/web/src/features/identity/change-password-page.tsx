import { zPassword } from "@northstar/shared/contracts/common";
import { Flex, Form, Input, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { feedback } from "../../lib/feedback.ts";
import { zodRule } from "../../lib/form-rules.ts";
import { legacyCall } from "../../lib/legacy.ts";
import { AppLink } from "../../lib/navigation.tsx";
import { usePolicy } from "../../lib/policy.ts";
import { useSession } from "../../lib/queries.ts";
import { Page } from "../common/page.tsx";
import { Intro } from "./auth-intro.tsx";
import { showServerError } from "./auth-rules.ts";
import { BindRequired } from "./bind-required.tsx";
import { NewPasswordFields } from "./new-password-fields.tsx";
import { SubmitButton } from "./submit-button.tsx";
import { useSubmitLock } from "./use-submit-lock.ts";

interface ChangeValues {
  old_password?: string;
  password?: string;
  confirm_password?: string;
}

/**
 * /editPassword: change the login password with the current one (web/updatePassword, mode=change).
 * The server keeps this session and ends the others. A user who has forgotten the current password
 * is offered the change by verification code instead.
 */
export function ChangePasswordPage() {
  const { t } = useTranslation();
  const [form] = Form.useForm<ChangeValues>();
  const navigate = useNavigate();
  const policy = usePolicy();
  const session = useSession();
  const [submitting, guard] = useSubmitLock();
  const max = policy["identity.loginPassword.maxLength"];
  // SPEC section 5: an email or phone must be bound first. The form shows while the session loads.
  const unbound = session.data !== undefined && !session.data.email && !session.data.phone;

  const submit = () =>
    guard(async () => {
      const values: ChangeValues = form.getFieldsValue(true);
      try {
        await legacyCall("updatePassword", {
          mode: "change",
          old_password: values.old_password ?? "",
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
    <Page title={t("nav.changePassword")} width={520}>
      {unbound ? (
        <BindRequired />
      ) : (
        <>
          <Intro>{t("auth.change.subtitle")}</Intro>
          <Form<ChangeValues>
            form={form}
            name="change-password"
            layout="vertical"
            requiredMark={false}
            onFinish={submit}
            scrollToFirstError
          >
            {/* A hidden username lets password managers update the right saved entry. */}
            <input
              type="text"
              name="username"
              autoComplete="username"
              value={session.data?.email || session.data?.phone || ""}
              readOnly
              hidden
            />
            <Form.Item
              name="old_password"
              label={t("fields.oldPassword")}
              rules={[zodRule(zPassword, t, "oldPassword")]}
            >
              <Input.Password
                name="old_password"
                autoComplete="current-password"
                maxLength={128}
                placeholder={t("auth.placeholders.oldPassword")}
                data-testid="change-old-password"
              />
            </Form.Item>
            <NewPasswordFields
              min={policy["identity.loginPassword.minLength"]}
              max={max}
              testIdPrefix="change"
              label={t("fields.newPassword")}
            />
            <Typography.Paragraph type="secondary">{t("auth.change.otherSessions")}</Typography.Paragraph>
            <Form.Item style={{ marginBottom: 16 }}>
              <SubmitButton loading={submitting} testId="change-submit">
                {t("common.confirm")}
              </SubmitButton>
            </Form.Item>
          </Form>
          <Flex justify="center">
            <AppLink to="/forgetpwd?type=changepwd">
              <span data-testid="change-by-code">{t("auth.change.byCode")}</span>
            </AppLink>
          </Flex>
        </>
      )}
    </Page>
  );
}
