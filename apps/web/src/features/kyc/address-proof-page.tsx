import { ZAddressProofRequestSchema } from "@northstar/shared/contracts/kyc";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Form, Input } from "antd";
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
import { useKycStatus } from "./use-kyc-status.ts";

const shape = ZAddressProofRequestSchema.shape;

/** /dzrz: address proof, the utility bill's address and its image, reviewed on its own. */
export function AddressProofPage() {
  const { t } = useTranslation();
  return (
    <Page title={t("kyc.title.address")}>
      <RealAccountOnly>
        <AddressProof />
      </RealAccountOnly>
    </Page>
  );
}

function AddressProof() {
  const { t } = useTranslation();
  const status = useKycStatus();
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
  const app = status.data.address;
  return (
    <ApplicationState
      application={reapplying && app?.status === "rejected" ? null : app}
      onReapply={() => setReapplying(true)}
      rows={[{ key: "address", label: t("kyc.fields.address"), value: String(app?.details.address ?? "") }]}
      form={<AddressForm onDone={() => setReapplying(false)} />}
    />
  );
}

function AddressForm({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<{ address: string; upload_id: string }>();
  const apply = useMutation(trpc.kyc.applyAddress.mutationOptions());
  return (
    <Form
      form={form}
      layout="vertical"
      requiredMark={false}
      disabled={apply.isPending}
      onFinish={(values) =>
        apply.mutate(values, {
          onSuccess: () => {
            feedback.success(t("kyc.hints.submitted"));
            onDone();
            void queryClient.invalidateQueries({ queryKey: trpc.kyc.status.queryKey() });
          },
          onError: (error) => markRefusedField(form, error),
        })
      }
    >
      <Form.Item
        name="address"
        label={t("kyc.fields.address")}
        rules={[fieldRule(shape.address, t, t("kyc.fields.address"))]}
      >
        <Input.TextArea maxLength={300} autoSize={{ minRows: 2 }} data-testid="kyc-address" />
      </Form.Item>
      <PhotoField name="upload_id" label={t("kyc.fields.bill")} testId="kyc-photo-bill" />
      {apply.isError && (
        <Alert type="error" showIcon title={apply.error.message} style={{ marginBottom: 12 }} />
      )}
      <Button type="primary" htmlType="submit" block loading={apply.isPending} data-testid="kyc-submit">
        {t("kyc.actions.submit")}
      </Button>
    </Form>
  );
}
