import { MailOutlined, SafetyOutlined } from "@ant-design/icons";
import { zEmail } from "@northstar/shared/contracts/common";
import { maskEmail } from "@northstar/shared/display";
import { useMutation } from "@tanstack/react-query";
import { Alert, Button, Flex, Form, Input } from "antd";
import { useTranslation } from "react-i18next";
import { feedback } from "../../lib/feedback.ts";
import { zodRule } from "../../lib/form-rules.ts";
import { useAppNavigate } from "../../lib/navigation.tsx";
import { useSession } from "../../lib/queries.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { CodeField } from "../common/code-field.tsx";
import { Page } from "../common/page.tsx";
import { ErrorState, LoadingState } from "../common/page-states.tsx";
import { markRefusedField, useInvalidateSession, useReturnPath } from "./account-helpers.ts";

interface BindEmailForm {
  email: string;
  code: string;
}

/** /email: binds an email (or replaces the bound one) after a code sent to the new address. */
export function BindEmailPage() {
  const { t } = useTranslation();
  const session = useSession();
  const trpc = useTRPC();
  const [form] = Form.useForm<BindEmailForm>();
  const invalidateSession = useInvalidateSession();
  const go = useAppNavigate();
  const returnPath = useReturnPath();
  const bind = useMutation(trpc.identity.bindEmail.mutationOptions());

  const current = session.data?.email ?? "";

  const submit = (values: BindEmailForm) => {
    bind.mutate(values, {
      onSuccess: () => {
        feedback.success(t("account.email.done"));
        void invalidateSession();
        go(returnPath, { replace: true });
      },
      onError: (error) => markRefusedField(form, error, { account: "email" }),
    });
  };

  const getTarget = async () => {
    try {
      const { email } = await form.validateFields(["email"]);
      return { type: "email" as const, account: email };
    } catch {
      return null;
    }
  };

  return (
    <Page title={t("nav.bindEmail")}>
      {session.isPending ? (
        <LoadingState />
      ) : session.isError ? (
        <ErrorState onRetry={() => void session.refetch()} />
      ) : (
        <Flex vertical gap={16}>
          <Alert
            type="info"
            showIcon
            title={
              current ? t("account.email.current", { email: maskEmail(current) }) : t("account.email.intro")
            }
            description={current ? t("account.email.replaceHint") : undefined}
            data-testid="bind-email-current"
          />
          <Form
            form={form}
            layout="vertical"
            requiredMark={false}
            onFinish={submit}
            disabled={bind.isPending}
          >
            <Form.Item
              name="email"
              label={current ? t("account.email.newEmail") : t("fields.email")}
              rules={[zodRule(zEmail, t, "email")]}
              validateTrigger="onBlur"
            >
              <Input
                prefix={<MailOutlined />}
                type="email"
                inputMode="email"
                autoComplete="email"
                maxLength={254}
                data-testid="bind-email-input"
              />
            </Form.Item>
            <CodeField
              purpose="bind"
              getTarget={getTarget}
              testId="bind-email-code"
              sendTestId="bind-email-send-code"
              prefix={<SafetyOutlined />}
            />
            <Button
              type="primary"
              htmlType="submit"
              block
              loading={bind.isPending}
              data-testid="bind-email-submit"
            >
              {current ? t("account.email.replace") : t("common.bind")}
            </Button>
          </Form>
        </Flex>
      )}
    </Page>
  );
}
