import { LockOutlined } from "@ant-design/icons";
import { zPassword } from "@northstar/shared/contracts/common";
import { SECURITY_QUESTION_IDS } from "@northstar/shared/contracts/identity";
import { useMutation } from "@tanstack/react-query";
import type { FormRule } from "antd";
import { Alert, Button, Flex, Form, Input } from "antd";
import { useTranslation } from "react-i18next";
import { feedback } from "../../lib/feedback.ts";
import { zodRule } from "../../lib/form-rules.ts";
import { useAppNavigate } from "../../lib/navigation.tsx";
import { useSession } from "../../lib/queries.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { Page } from "../common/page.tsx";
import { ErrorState, LoadingState } from "../common/page-states.tsx";
import { markRefusedField, useInvalidateSession, useReturnPath } from "./account-helpers.ts";

/** The server accepts answers of 1 to 64 characters (ZSetSecurityQuestionsRequestSchema). */
const ANSWER_MAX = 64;

type QuestionsForm = Record<`answer_${(typeof SECURITY_QUESTION_IDS)[number]}`, string> & {
  login_password: string;
};

/** /securityQuestions: answers to questions 1 to 3, confirmed by the login password; saving again replaces them. */
export function SecurityQuestionsPage() {
  const { t } = useTranslation();
  const session = useSession();
  const trpc = useTRPC();
  const [form] = Form.useForm<QuestionsForm>();
  const invalidateSession = useInvalidateSession();
  const go = useAppNavigate();
  const returnPath = useReturnPath();
  const save = useMutation(trpc.identity.setSecurityQuestions.mutationOptions());

  const answerRule: FormRule = {
    validator: async (_, value: string | undefined) => {
      const answer = (value ?? "").trim();
      if (!answer) {
        throw new Error(t("errors.FIELD_REQUIRED", { field: t("fields.answer") }));
      }
      if (answer.length > ANSWER_MAX) {
        throw new Error(t("account.questions.tooLong", { max: ANSWER_MAX }));
      }
    },
  };

  const submit = (values: QuestionsForm) => {
    save.mutate(
      {
        answers: SECURITY_QUESTION_IDS.map((id) => ({
          question_id: id,
          answer: values[`answer_${id}`].trim(),
        })),
        login_password: values.login_password,
      },
      {
        onSuccess: () => {
          feedback.success(t("account.questions.done"));
          void invalidateSession();
          go(returnPath, { replace: true });
        },
        onError: (error) =>
          markRefusedField(
            form,
            error,
            Object.fromEntries(SECURITY_QUESTION_IDS.map((id, i) => [`answers.${i}.answer`, `answer_${id}`])),
          ),
      },
    );
  };

  return (
    <Page title={t("nav.securityQuestions")}>
      {session.isPending ? (
        <LoadingState rows={6} />
      ) : session.isError ? (
        <ErrorState onRetry={() => void session.refetch()} />
      ) : (
        <Flex vertical gap={16}>
          <Alert
            type={session.data.security_questions === 1 ? "warning" : "info"}
            showIcon
            title={
              session.data.security_questions === 1
                ? t("account.questions.alreadySet")
                : t("account.questions.intro")
            }
            description={t("account.questions.hint")}
          />
          <Form
            form={form}
            layout="vertical"
            requiredMark={false}
            onFinish={submit}
            disabled={save.isPending}
          >
            {SECURITY_QUESTION_IDS.map((id) => (
              <Form.Item
                key={id}
                name={`answer_${id}`}
                label={t(`account.questions.q${id}`)}
                rules={[answerRule]}
                validateTrigger="onBlur"
              >
                <Input maxLength={ANSWER_MAX} autoComplete="off" data-testid={`security-answer-${id}`} />
              </Form.Item>
            ))}
            <Form.Item
              name="login_password"
              label={t("account.fields.loginPassword")}
              rules={[zodRule(zPassword, t, "password")]}
            >
              <Input.Password
                prefix={<LockOutlined />}
                autoComplete="current-password"
                data-testid="security-questions-password"
              />
            </Form.Item>
            <Button
              type="primary"
              htmlType="submit"
              block
              loading={save.isPending}
              data-testid="security-questions-submit"
            >
              {t("common.save")}
            </Button>
          </Form>
        </Flex>
      )}
    </Page>
  );
}
