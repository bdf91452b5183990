import { QUESTIONS } from "@northstar/shared/kyc";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Flex, Form, Radio, Result, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { usePolicy } from "../../lib/policy.ts";
import { tokenStore } from "../../lib/session.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { LoginPrompt } from "../common/login-prompt.tsx";
import { Page } from "../common/page.tsx";
import { useFormatUsdt } from "./use-format-usdt.ts";

type Answers = Record<(typeof QUESTIONS)[number]["id"], number>;

/**
 * /questionnaire (alias /fengxian; public): the five questions of SPEC section 3 and how they are
 * scored. Anyone may read them; submitting needs a session and gives the risk level and the
 * maximum investment per order it allows.
 */
export function QuestionnairePage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const policy = usePolicy();
  const usdt = useFormatUsdt();
  const [form] = Form.useForm<Answers>();
  const [askLogin, setAskLogin] = useState(false);
  const submit = useMutation(trpc.kyc.submitQuestionnaire.mutationOptions());
  const thresholds = policy["kyc.risk.thresholds"];

  if (submit.isSuccess) {
    const r = submit.data;
    return (
      <Page title={t("kyc.title.questionnaire")}>
        <Result
          status="success"
          title={
            <span data-testid="kyc-risk-result">
              {t("kyc.risk.result", { level: t(`kyc.risk.levels.${r.level}`) })}
            </span>
          }
          subTitle={
            <Flex vertical gap={4}>
              <span>
                {t("kyc.risk.score")}: <span className="ns-num">{r.score}</span>
              </span>
              <span>
                {t("kyc.risk.maxPerOrder")}: <span className="ns-num">{usdt(r.maxPerOrderUsdt)}</span>
              </span>
            </Flex>
          }
          extra={
            <Button onClick={() => submit.reset()} data-testid="kyc-retake">
              {t("kyc.actions.retake")}
            </Button>
          }
        />
      </Page>
    );
  }
  return (
    <Page title={t("kyc.title.questionnaire")} width={720}>
      {askLogin ? (
        <LoginPrompt />
      ) : (
        <Form
          form={form}
          layout="vertical"
          requiredMark={false}
          disabled={submit.isPending}
          onFinish={(answers) => {
            if (!tokenStore.get()) {
              setAskLogin(true);
              return;
            }
            submit.mutate(
              { answers },
              {
                onSuccess: () => void queryClient.invalidateQueries({ queryKey: trpc.kyc.status.queryKey() }),
              },
            );
          }}
        >
          <Typography.Paragraph type="secondary">
            {t("kyc.risk.scoring", { balanced: thresholds.balanced, aggressive: thresholds.aggressive })}
          </Typography.Paragraph>
          {QUESTIONS.map((q, n) => (
            <Form.Item
              key={q.id}
              name={q.id}
              label={
                <Typography.Text strong>
                  {n + 1}. {t(`kyc.questions.${q.id}.title`)}
                </Typography.Text>
              }
              rules={[{ required: true, message: t("kyc.risk.unanswered") }]}
            >
              <Radio.Group data-testid={`kyc-q-${q.id}`}>
                <Flex vertical gap={6}>
                  {Array.from(q.points.keys(), (i) => i + 1).map((option) => (
                    <Radio key={option} value={option} data-testid={`kyc-q-${q.id}-${option}`}>
                      {t(`kyc.questions.${q.id}.o${option}`)}
                    </Radio>
                  ))}
                </Flex>
              </Radio.Group>
            </Form.Item>
          ))}
          {submit.isError && (
            <Alert type="error" showIcon title={submit.error.message} style={{ marginBottom: 12 }} />
          )}
          <Button type="primary" htmlType="submit" block loading={submit.isPending} data-testid="kyc-submit">
            {t("kyc.actions.submit")}
          </Button>
        </Form>
      )}
    </Page>
  );
}
