import { ZCreditProofRequestSchema } from "@northstar/shared/contracts/kyc";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Descriptions, Divider, Flex, Form, Input, Progress, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { feedback } from "../../lib/feedback.ts";
import { usePolicy } from "../../lib/policy.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { markRefusedField } from "../account/account-helpers.ts";
import { Page } from "../common/page.tsx";
import { ErrorState, LoadingState } from "../common/page-states.tsx";
import { fieldRule } from "../funding/amount-rules.ts";
import { useFormatDateTime } from "../funding/use-format-date-time.ts";
import { GatePrompt } from "./gate-prompt.tsx";
import { KycStatusTag } from "./kyc-status-tag.tsx";
import { PhotoField } from "./photo-field.tsx";
import { useFormatUsdt } from "./use-format-usdt.ts";
import { useKycStatus } from "./use-kyc-status.ts";

/**
 * /credit (alias /xinyongfen): the credit score (needs primary KYC), the assessment time, each
 * factor of the published formula, the loan limit it gives, and the credit proof an operator assesses.
 */
export function CreditPage() {
  const { t } = useTranslation();
  const status = useKycStatus();
  return (
    <Page title={t("kyc.title.credit")}>
      {status.isPending ? (
        <LoadingState />
      ) : status.isError ? (
        <ErrorState onRetry={() => void status.refetch()} />
      ) : status.data.gates.creditScore.allowed ? (
        <CreditScore proof={status.data.credit} />
      ) : (
        <GatePrompt next={status.data.gates.creditScore.next ?? "primary"} />
      )}
    </Page>
  );
}

function CreditScore({ proof }: { proof: { status: string; rejectReason: string | null } | null }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const usdt = useFormatUsdt();
  const dateTime = useFormatDateTime();
  const credit = useQuery(trpc.kyc.creditScore.queryOptions());
  if (credit.isPending) {
    return <LoadingState />;
  }
  if (credit.isError) {
    return <ErrorState onRetry={() => void credit.refetch()} message={credit.error.message} />;
  }
  const c = credit.data;
  return (
    <Flex vertical gap={16}>
      <Flex vertical align="center" gap={8}>
        <Progress
          type="dashboard"
          percent={Math.round((c.score / c.max) * 100)}
          format={() => (
            <span className="ns-num" data-testid="kyc-credit-score">
              {c.score}
            </span>
          )}
        />
        <Typography.Text type="secondary">
          {c.assessedAt
            ? `${t("kyc.credit.assessedAt")}: ${dateTime(c.assessedAt)}`
            : t("kyc.credit.notAssessed")}
        </Typography.Text>
        <Typography.Text>
          {t("kyc.credit.loanLimit")}:{" "}
          <Typography.Text strong className="ns-num" data-testid="kyc-loan-limit">
            {usdt(c.loanLimitUsdt)}
          </Typography.Text>
        </Typography.Text>
      </Flex>
      <Descriptions
        title={t("kyc.credit.factors")}
        column={1}
        size="small"
        bordered
        items={c.factors.map((f) => ({
          key: f.key,
          label: t(`kyc.credit.factor.${f.key}`),
          children: (
            <span className="ns-num" data-testid={`kyc-factor-${f.key}`}>
              {f.points > 0 ? `+${f.points}` : f.points}
            </span>
          ),
        }))}
      />
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t("kyc.credit.computedAt")}: {dateTime(c.computedAt)}
      </Typography.Text>
      <Divider style={{ margin: 0 }} />
      <CreditProof proof={proof} />
    </Flex>
  );
}

function CreditProof({ proof }: { proof: { status: string; rejectReason: string | null } | null }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const policy = usePolicy();
  const [form] = Form.useForm<{ note?: string; upload_id: string }>();
  const apply = useMutation(trpc.kyc.applyCredit.mutationOptions());
  const open = !proof || proof.status === "rejected";
  return (
    <Flex vertical gap={8}>
      <Flex justify="space-between" align="center">
        <Typography.Text strong>{t("kyc.credit.applyProof")}</Typography.Text>
        <KycStatusTag status={proof?.status ?? "unverified"} />
      </Flex>
      {proof?.rejectReason && <Alert type="error" showIcon title={t(`kyc.reasons.${proof.rejectReason}`)} />}
      {open && (
        <Form
          form={form}
          layout="vertical"
          requiredMark={false}
          disabled={apply.isPending}
          onFinish={(values) =>
            apply.mutate(values, {
              onSuccess: () => {
                feedback.success(t("kyc.hints.submitted"));
                void queryClient.invalidateQueries({ queryKey: trpc.kyc.status.queryKey() });
              },
              onError: (error) => markRefusedField(form, error),
            })
          }
        >
          <Typography.Paragraph type="secondary" style={{ fontSize: 13 }}>
            {t("kyc.credit.proofHint", { max: policy["kyc.credit.points"].assessmentMax })}
          </Typography.Paragraph>
          <PhotoField name="upload_id" label={t("kyc.fields.creditProof")} testId="kyc-photo-credit" />
          <Form.Item
            name="note"
            label={t("kyc.fields.note")}
            rules={[fieldRule(ZCreditProofRequestSchema.shape.note, t, t("kyc.fields.note"))]}
          >
            <Input maxLength={300} />
          </Form.Item>
          <Button htmlType="submit" block loading={apply.isPending} data-testid="kyc-credit-submit">
            {t("kyc.actions.submit")}
          </Button>
        </Form>
      )}
    </Flex>
  );
}
