import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Form, Input } from "antd";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { useAppNavigate } from "../../lib/navigation.tsx";
import { useTRPC } from "../../lib/trpc.ts";
import { useMoneyFormat } from "../assets/assets-format.ts";
import { ConfirmModal, SummaryRows } from "../common/confirm-summary-dialog.tsx";
import { Page } from "../common/page.tsx";
import { ErrorState, LoadingState } from "../common/page-states.tsx";
import { ProofUpload } from "../funding/proof-upload.tsx";
import { Countdown } from "./countdown.tsx";
import { PayeeDetails } from "./payee-details.tsx";
import { PayerAccount } from "./payer-account.tsx";

/**
 * /c2c_submit?id=<order>: after wiring the money, the user uploads the payment proof before the
 * deadline; confirming it stops the clock and hands the order to the merchant's confirmation.
 */
export function SubmitProofPage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const go = useAppNavigate();
  const format = useMoneyFormat();
  const [params] = useSearchParams();
  const id = Number(params.get("id") ?? 0);
  const order = useQuery({ ...trpc.c2c.order.queryOptions({ order_id: id }), enabled: id > 0 });
  const submit = useMutation(trpc.c2c.submitProof.mutationOptions());
  const [form] = Form.useForm<{ proof_upload_id: string; note?: string }>();
  const [uploading, setUploading] = useState(false);
  const [confirming, setConfirming] = useState<{ proof_upload_id: string; note?: string } | null>(null);
  const sending = useRef(false);

  const confirm = () => {
    if (!confirming || sending.current) {
      return;
    }
    sending.current = true;
    submit.mutate(
      { order_id: id, proof_upload_id: confirming.proof_upload_id, note: confirming.note ?? "" },
      {
        onSuccess: () => {
          setConfirming(null);
          void queryClient.invalidateQueries(trpc.c2c.pathFilter());
          go(`/c2c_order?id=${id}`);
        },
        onError: () => setConfirming(null),
        onSettled: () => {
          sending.current = false;
        },
      },
    );
  };

  const body = () => {
    if (!(id > 0)) {
      return <ErrorState message={t("errors.C2C_ORDER_NOT_FOUND")} />;
    }
    if (order.isPending) {
      return <LoadingState rows={5} />;
    }
    if (order.isError) {
      return <ErrorState message={order.error.message} onRetry={() => void order.refetch()} />;
    }
    const o = order.data;
    const amount = `${format.exact(o.fiatAmount, 2, 2)} ${o.fiat}`;
    if (o.status !== "matched" || !o.payee) {
      return (
        <>
          <Alert type="info" showIcon message={t(`c2c.status.${o.status}`)} />
          <Button block style={{ marginTop: 12 }} onClick={() => go(`/c2c_order?id=${o.id}`)}>
            {t("c2c.order")}
          </Button>
        </>
      );
    }
    return (
      <>
        <div style={{ textAlign: "center", marginBottom: 12 }}>
          <Countdown deadline={o.expiresAt} onElapsed={() => void order.refetch()} />
        </div>
        <PayeeDetails payee={o.payee} />
        <PayerAccount />
        <Alert type="warning" showIcon message={t("c2c.wireHint", { amount })} style={{ margin: "12px 0" }} />
        <Form form={form} layout="vertical" onFinish={(v) => setConfirming(v)} disabled={submit.isPending}>
          <Form.Item
            name="proof_upload_id"
            label={t("fields.proof")}
            rules={[{ required: true, message: t("errors.PROOF_REQUIRED") }]}
          >
            <ProofUpload
              testId="c2c-proof"
              onBusy={setUploading}
              onReject={(message) => form.setFields([{ name: "proof_upload_id", errors: [message] }])}
            />
          </Form.Item>
          <Form.Item name="note" label={t("fields.note")}>
            <Input.TextArea
              autoSize={{ minRows: 2, maxRows: 4 }}
              maxLength={300}
              showCount
              data-testid="c2c-proof-note"
            />
          </Form.Item>
          <Button
            type="primary"
            htmlType="submit"
            block
            size="large"
            disabled={uploading}
            data-testid="c2c-submit"
          >
            {t("c2c.submitProof")}
          </Button>
        </Form>
        <ConfirmModal
          open={confirming !== null}
          title={t("c2c.submitConfirmTitle")}
          busy={submit.isPending}
          onOk={confirm}
          onCancel={() => setConfirming(null)}
          okTestId="c2c-submit-confirm"
        >
          <SummaryRows
            rows={[
              { key: "order", label: t("c2c.order"), value: t("c2c.orderNo", { id: o.id }) },
              { key: "paid", label: t("c2c.youPay"), value: <strong>{amount}</strong> },
              { key: "payee", label: t("fields.payeeName"), value: o.payee.payeeName },
              { key: "account", label: t("fields.bankAccount"), value: o.payee.bankAccount },
            ]}
          />
          <p style={{ marginTop: 12 }}>{t("c2c.submitConfirmText", { amount })}</p>
        </ConfirmModal>
      </>
    );
  };

  return (
    <Page title={t("c2c.submitProof")} width={640}>
      {body()}
    </Page>
  );
}
