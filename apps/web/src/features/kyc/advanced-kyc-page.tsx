import { ASSET_KINDS, ZAdvancedKycRequestSchema } from "@northstar/shared/contracts/kyc";
import { QUESTIONS } from "@northstar/shared/kyc";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Flex, Form, Input, Select } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { feedback } from "../../lib/feedback.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { markRefusedField } from "../account/account-helpers.ts";
import { Page } from "../common/page.tsx";
import { ErrorState, LoadingState } from "../common/page-states.tsx";
import { fieldRule } from "../funding/amount-rules.ts";
import { RealAccountOnly } from "../funding/real-account-only.tsx";
import { ApplicationState } from "./application-state.tsx";
import { GatePrompt } from "./gate-prompt.tsx";
import { PhotoField } from "./photo-field.tsx";
import { useFormatUsdt } from "./use-format-usdt.ts";
import { useKycStatus } from "./use-kyc-status.ts";

interface AdvancedForm {
  occupation: number;
  monthly_income: string;
  source_of_wealth: string;
  expected_investment: string;
  proofs: Partial<Record<(typeof ASSET_KINDS)[number], string>>;
}

const shape = ZAdvancedKycRequestSchema.shape;
const OCCUPATIONS = QUESTIONS.find((q) => q.id === "occupation")?.points.length ?? 12;

/** /seniorauth (alias /authenticationhigh): advanced KYC, after primary KYC is approved. */
export function AdvancedKycPage() {
  const { t } = useTranslation();
  return (
    <Page title={t("kyc.title.advanced")}>
      <RealAccountOnly>
        <AdvancedKyc />
      </RealAccountOnly>
    </Page>
  );
}

function AdvancedKyc() {
  const { t } = useTranslation();
  const status = useKycStatus();
  const usdt = useFormatUsdt();
  const [reapplying, setReapplying] = useState(false);
  if (status.isPending) {
    return <LoadingState />;
  }
  if (status.isError) {
    return <ErrorState onRetry={() => void status.refetch()} />;
  }
  if (status.data.primary?.status !== "approved") {
    return <GatePrompt next="primary" />;
  }
  const app = status.data.advanced;
  const d = app?.details ?? {};
  return (
    <ApplicationState
      application={reapplying && app?.status === "rejected" ? null : app}
      onReapply={() => setReapplying(true)}
      rows={[
        {
          key: "occupation",
          label: t("kyc.fields.occupation"),
          value: t(`kyc.questions.occupation.o${String(d.occupation)}`),
        },
        { key: "income", label: t("kyc.fields.monthlyIncome"), value: usdt(String(d.monthlyIncome ?? "0")) },
        { key: "wealth", label: t("kyc.fields.sourceOfWealth"), value: String(d.sourceOfWealth ?? "") },
        {
          key: "expected",
          label: t("kyc.fields.expectedInvestment"),
          value: usdt(String(d.expectedInvestment ?? "0")),
        },
      ]}
      form={<AdvancedFormView onDone={() => setReapplying(false)} />}
    />
  );
}

function AdvancedFormView({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<AdvancedForm>();
  const apply = useMutation(trpc.kyc.applyAdvanced.mutationOptions());
  const submit = ({ proofs, ...values }: AdvancedForm) => {
    const assets = ASSET_KINDS.flatMap((kind) => (proofs[kind] ? [{ kind, upload_id: proofs[kind] }] : []));
    if (assets.length === 0) {
      form.setFields([{ name: ["proofs", "house"], errors: [t("errors.PROOF_REQUIRED")] }]);
      return;
    }
    apply.mutate(
      { ...values, assets },
      {
        onSuccess: () => {
          feedback.success(t("kyc.hints.submitted"));
          onDone();
          void queryClient.invalidateQueries({ queryKey: trpc.kyc.status.queryKey() });
        },
        onError: (error) => markRefusedField(form, error),
      },
    );
  };
  return (
    <Form form={form} layout="vertical" requiredMark={false} onFinish={submit} disabled={apply.isPending}>
      <Form.Item
        name="occupation"
        label={t("kyc.fields.occupation")}
        rules={[
          { required: true, message: t("errors.FIELD_REQUIRED", { field: t("kyc.fields.occupation") }) },
        ]}
      >
        <Select
          data-testid="kyc-occupation"
          options={Array.from({ length: OCCUPATIONS }, (_, i) => ({
            value: i + 1,
            label: t(`kyc.questions.occupation.o${i + 1}`),
          }))}
        />
      </Form.Item>
      <Flex gap={16} wrap>
        <Form.Item
          name="monthly_income"
          label={t("kyc.fields.monthlyIncome")}
          rules={[fieldRule(shape.monthly_income, t, t("kyc.fields.monthlyIncome"))]}
          style={{ flex: "1 1 200px" }}
        >
          <Input inputMode="decimal" className="ns-num" data-testid="kyc-monthly-income" />
        </Form.Item>
        <Form.Item
          name="expected_investment"
          label={t("kyc.fields.expectedInvestment")}
          rules={[fieldRule(shape.expected_investment, t, t("kyc.fields.expectedInvestment"))]}
          style={{ flex: "1 1 200px" }}
        >
          <Input inputMode="decimal" className="ns-num" data-testid="kyc-expected-investment" />
        </Form.Item>
      </Flex>
      <Form.Item
        name="source_of_wealth"
        label={t("kyc.fields.sourceOfWealth")}
        rules={[fieldRule(shape.source_of_wealth, t, t("kyc.fields.sourceOfWealth"))]}
      >
        <Input maxLength={200} data-testid="kyc-source-of-wealth" />
      </Form.Item>
      <Form.Item label={t("kyc.fields.assets")} style={{ marginBottom: 0 }}>
        <Flex gap={8} wrap>
          {ASSET_KINDS.map((kind) => (
            <OptionalPhoto key={kind} kind={kind} />
          ))}
        </Flex>
      </Form.Item>
      {apply.isError && (
        <Alert type="error" showIcon title={apply.error.message} style={{ marginBottom: 12 }} />
      )}
      <Button type="primary" htmlType="submit" block loading={apply.isPending} data-testid="kyc-submit">
        {t("kyc.actions.submit")}
      </Button>
    </Form>
  );
}

/** An asset proof: any one of the four is enough. */
function OptionalPhoto({ kind }: { kind: (typeof ASSET_KINDS)[number] }) {
  const { t } = useTranslation();
  return (
    <PhotoField
      name={["proofs", kind]}
      label={t(`kyc.assets.${kind}`)}
      testId={`kyc-asset-${kind}`}
      optional
    />
  );
}
