import { zAmount } from "@northstar/shared/contracts/funding";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Flex, Form, Input, Select, Typography } from "antd";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { feedback } from "../../lib/feedback.ts";
import { useAppNavigate } from "../../lib/navigation.tsx";
import { usePolicy } from "../../lib/policy.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { markRefusedField } from "../account/account-helpers.ts";
import { ConfirmModal } from "../common/confirm-summary-dialog.tsx";
import { Amount } from "./amount.tsx";
import { decimalsRule, depositMinimumRule, fieldRule, requiredRule } from "./amount-rules.ts";
import { DepositTarget } from "./deposit-target.tsx";
import type { DepositOption } from "./funding-types.ts";
import { KeyValue } from "./key-value.tsx";
import { ProofUpload } from "./proof-upload.tsx";
import { useCurrencyDecimals } from "./use-currency-decimals.ts";
import "./funding.css";

interface DepositForm {
  currency: string;
  chain: string;
  amount: string;
  tx_hash: string;
  proof_upload_id: string;
  description?: string;
}

/** Report a crypto transfer: currency and chain, amount, transaction hash and proof, then confirm. */
export function CryptoDepositForm({ addresses }: { addresses: DepositOption[] }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const go = useAppNavigate();
  const [form] = Form.useForm<DepositForm>();
  const [confirming, setConfirming] = useState<DepositForm | null>(null);
  const [uploading, setUploading] = useState(false);
  const create = useMutation(trpc.deposit.create.mutationOptions());
  const maxMb = Math.floor(usePolicy()["uploads.maxBytes"] / 1024 / 1024);
  const decimalsOf = useCurrencyDecimals();

  const currencies = useMemo(() => [...new Set(addresses.map((a) => a.currency))], [addresses]);
  const first = addresses[0];
  const currency = Form.useWatch("currency", form) ?? first?.currency ?? "";
  const chains = addresses.filter((a) => a.currency === currency).map((a) => a.chain);
  const chainWatched = Form.useWatch("chain", form);
  const chain = chainWatched && chains.includes(chainWatched) ? chainWatched : (chains[0] ?? "");
  const target = addresses.find((a) => a.currency === currency && a.chain === chain);
  const minimum = target?.minimum ?? "0";

  const minimumRule = depositMinimumRule(t, minimum, currency);

  const review = (values: DepositForm) => setConfirming({ ...values, currency, chain });

  const submit = () => {
    if (!confirming) {
      return;
    }
    create.mutate(
      {
        channel: "crypto",
        currency: confirming.currency,
        chain: confirming.chain,
        amount: confirming.amount.trim(),
        tx_hash: confirming.tx_hash.trim(),
        proof_upload_id: confirming.proof_upload_id,
        description: confirming.description?.trim() || undefined,
      },
      {
        onSuccess: () => {
          setConfirming(null);
          feedback.success(t("funding.deposit.submitted"));
          void queryClient.invalidateQueries({ queryKey: trpc.deposit.getMany.pathKey() });
          go("/rechargeRecord");
        },
        onError: (error) => {
          setConfirming(null);
          markRefusedField(form, error);
        },
      },
    );
  };

  return (
    <>
      <Form
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={{ currency: first?.currency, chain: first?.chain }}
        onFinish={review}
        disabled={create.isPending}
        onValuesChange={(changed: Partial<DepositForm>) => {
          if (changed.currency) {
            const next = addresses.find((a) => a.currency === changed.currency);
            form.setFieldValue("chain", next?.chain);
            if (form.getFieldValue("amount")) {
              void form.validateFields(["amount"]).catch(() => undefined);
            }
          }
        }}
      >
        <Flex gap={16} wrap>
          <Form.Item name="currency" label={t("fields.currency")} style={{ flex: "1 1 160px" }}>
            <Select
              options={currencies.map((c) => ({ value: c, label: c }))}
              data-testid="deposit-currency"
              aria-label={t("fields.currency")}
            />
          </Form.Item>
          <Form.Item name="chain" label={t("fields.chain")} style={{ flex: "1 1 160px" }}>
            <Select
              options={chains.map((c) => ({ value: c, label: c }))}
              data-testid="deposit-chain"
              aria-label={t("fields.chain")}
            />
          </Form.Item>
        </Flex>

        {target && <DepositTarget target={target} />}

        <Form.Item
          name="amount"
          label={t("fields.amount")}
          rules={[
            fieldRule(zAmount, t, t("fields.amount")),
            decimalsRule(t, currency, decimalsOf(currency)),
            minimumRule,
          ]}
          normalize={(v: string) => v.replace(/[^\d.]/g, "")}
          extra={t("funding.deposit.amountHelp", { min: minimum, currency })}
        >
          <Input
            inputMode="decimal"
            autoComplete="off"
            suffix={currency}
            placeholder={t("funding.deposit.minimumShort", { min: minimum })}
            className="ns-num"
            data-testid="deposit-amount"
          />
        </Form.Item>
        <Form.Item
          name="tx_hash"
          label={t("fields.txHash")}
          rules={[requiredRule(t, t("fields.txHash"))]}
          extra={t("funding.deposit.hashHelp")}
        >
          <Input autoComplete="off" spellCheck={false} maxLength={200} data-testid="deposit-hash" />
        </Form.Item>
        <Form.Item
          name="proof_upload_id"
          label={t("fields.proof")}
          rules={[{ required: true, message: t("errors.PROOF_REQUIRED") }]}
          extra={t("funding.deposit.proofHelp", { mb: maxMb })}
        >
          <ProofUpload
            testId="deposit-proof"
            onBusy={setUploading}
            onReject={(message) => form.setFields([{ name: "proof_upload_id", errors: [message] }])}
          />
        </Form.Item>
        <Form.Item name="description" label={t("fields.description")}>
          <Input.TextArea
            autoSize={{ minRows: 2, maxRows: 5 }}
            maxLength={500}
            showCount
            data-testid="deposit-description"
          />
        </Form.Item>
        <Button
          type="primary"
          htmlType="submit"
          block
          size="large"
          loading={create.isPending}
          disabled={uploading}
          data-testid="deposit-submit"
        >
          {t("funding.deposit.submit")}
        </Button>
      </Form>
      <ConfirmModal
        open={confirming !== null}
        title={t("funding.deposit.confirmTitle")}
        busy={create.isPending}
        onOk={submit}
        onCancel={() => setConfirming(null)}
        okTestId="deposit-confirm"
      >
        {confirming && (
          <Flex vertical gap={8} data-testid="deposit-summary">
            <KeyValue label={t("fields.currency")}>
              {confirming.currency} · {confirming.chain}
            </KeyValue>
            <KeyValue label={t("fields.amount")}>
              <Amount value={confirming.amount} currency={confirming.currency} strong />
            </KeyValue>
            <KeyValue label={t("fields.txHash")}>
              <Typography.Text className="ns-break">{confirming.tx_hash}</Typography.Text>
            </KeyValue>
            {confirming.description && (
              <KeyValue label={t("fields.description")}>
                <Typography.Text>{confirming.description}</Typography.Text>
              </KeyValue>
            )}
            <Alert type="info" showIcon title={t("funding.deposit.reviewNote")} style={{ marginTop: 8 }} />
          </Flex>
        )}
      </ConfirmModal>
    </>
  );
}
