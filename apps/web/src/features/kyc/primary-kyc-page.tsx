import { ZPrimaryKycRequestSchema } from "@northstar/shared/contracts/kyc";
import { DOCUMENT_TYPE_KEYS, DOCUMENT_TYPES } from "@northstar/shared/kyc";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Flex, Form, Input, Select, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { feedback } from "../../lib/feedback.ts";
import { usePolicy } from "../../lib/policy.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { markRefusedField } from "../account/account-helpers.ts";
import { Page } from "../common/page.tsx";
import { ErrorState, LoadingState } from "../common/page-states.tsx";
import { fieldRule } from "../funding/amount-rules.ts";
import { RealAccountOnly } from "../funding/real-account-only.tsx";
import { ApplicationState } from "./application-state.tsx";
import { PhotoField } from "./photo-field.tsx";
import { useKycStatus } from "./use-kyc-status.ts";

interface PrimaryForm {
  document_type: number;
  real_name: string;
  document_number: string;
  front_upload_id: string;
  back_upload_id: string;
  handheld_upload_id: string;
}

const shape = ZPrimaryKycRequestSchema.shape;

/** /smauth: primary KYC (SPEC section 3 and 5): document, real name, three photos. */
export function PrimaryKycPage() {
  const { t } = useTranslation();
  return (
    <Page title={t("kyc.title.primary")}>
      <RealAccountOnly>
        <PrimaryKyc />
      </RealAccountOnly>
    </Page>
  );
}

function PrimaryKyc() {
  const { t } = useTranslation();
  const status = useKycStatus();
  const [reapplying, setReapplying] = useState(false);
  if (status.isPending) {
    return <LoadingState />;
  }
  if (status.isError) {
    return <ErrorState onRetry={() => void status.refetch()} />;
  }
  const app = status.data.primary;
  const details = app?.details ?? {};
  return (
    <ApplicationState
      application={reapplying && app?.status === "rejected" ? null : app}
      onReapply={() => setReapplying(true)}
      rows={[
        { key: "nationality", label: t("kyc.fields.nationality"), value: String(details.nationality ?? "") },
        {
          key: "documentType",
          label: t("kyc.fields.documentType"),
          value: t(`kyc.documentTypes.${DOCUMENT_TYPE_KEYS[details.documentType as 1] ?? "other"}`),
        },
        { key: "realName", label: t("kyc.fields.realName"), value: String(details.realName ?? "") },
        {
          key: "documentNumber",
          label: t("kyc.fields.documentNumber"),
          value: String(details.documentNumber ?? ""),
        },
      ]}
      form={<PrimaryForm nationality={status.data.nationality} onDone={() => setReapplying(false)} />}
    />
  );
}

function PrimaryForm({ nationality, onDone }: { nationality: string; onDone: () => void }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const policy = usePolicy();
  const [form] = Form.useForm<PrimaryForm>();
  const apply = useMutation(trpc.kyc.applyPrimary.mutationOptions());
  const submit = (values: PrimaryForm) =>
    apply.mutate(values, {
      onSuccess: () => {
        feedback.success(t("kyc.hints.submitted"));
        onDone();
        void queryClient.invalidateQueries({ queryKey: trpc.kyc.status.queryKey() });
      },
      onError: (error) => markRefusedField(form, error),
    });
  return (
    <Form
      form={form}
      layout="vertical"
      requiredMark={false}
      onFinish={submit}
      disabled={apply.isPending}
      initialValues={{ document_type: 1 }}
    >
      <Form.Item label={t("kyc.fields.nationality")} extra={t("kyc.hints.nationalityFixed")}>
        <Input value={nationality} disabled data-testid="kyc-nationality" />
      </Form.Item>
      <Form.Item name="document_type" label={t("kyc.fields.documentType")}>
        <Select
          data-testid="kyc-document-type"
          options={DOCUMENT_TYPES.map((id) => ({
            value: id,
            label: t(`kyc.documentTypes.${DOCUMENT_TYPE_KEYS[id]}`),
          }))}
        />
      </Form.Item>
      <Form.Item
        name="real_name"
        label={t("kyc.fields.realName")}
        rules={[fieldRule(shape.real_name, t, t("kyc.fields.realName"))]}
      >
        <Input maxLength={64} autoComplete="name" data-testid="kyc-real-name" />
      </Form.Item>
      <Form.Item
        name="document_number"
        label={t("kyc.fields.documentNumber")}
        rules={[fieldRule(shape.document_number, t, t("kyc.fields.documentNumber"))]}
      >
        <Input maxLength={30} autoComplete="off" spellCheck={false} data-testid="kyc-document-number" />
      </Form.Item>
      <Typography.Paragraph type="secondary" style={{ fontSize: 13 }}>
        {t("kyc.hints.photos", { mb: Math.floor(policy["uploads.maxBytes"] / 1024 / 1024) })}
      </Typography.Paragraph>
      <Flex gap={8} wrap>
        <PhotoField name="front_upload_id" label={t("kyc.fields.front")} testId="kyc-photo-front" />
        <PhotoField name="back_upload_id" label={t("kyc.fields.back")} testId="kyc-photo-back" />
        <PhotoField name="handheld_upload_id" label={t("kyc.fields.handheld")} testId="kyc-photo-handheld" />
      </Flex>
      {apply.isError && (
        <Alert type="error" showIcon title={apply.error.message} style={{ marginBottom: 12 }} />
      )}
      <Button type="primary" htmlType="submit" block loading={apply.isPending} data-testid="kyc-submit">
        {t("kyc.actions.submit")}
      </Button>
    </Form>
  );
}
