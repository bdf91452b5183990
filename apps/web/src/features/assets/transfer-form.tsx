import { type TWalletType, WALLET_TYPES, ZTransferRequestSchema } from "@northstar/shared/contracts/funding";
import { MoneyDecimal } from "@northstar/shared/money";
import { useMutation } from "@tanstack/react-query";
import { Button, Flex, Form, Input, Select, Typography } from "antd";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { feedback } from "../../lib/feedback.ts";
import { zodRule } from "../../lib/form-rules.ts";
import { useRequestIntent, withRequestKey } from "../../lib/request-key.ts";
import { useTRPC, useTRPCClient } from "../../lib/trpc.ts";
import { markRefusedField } from "../account/account-helpers.ts";
import { ConfirmModal, SummaryRows } from "../common/confirm-summary-dialog.tsx";
import { type AssetsData, type CurrencyInfo, objectSchemaRule, useInvalidateAssets } from "./assets-data.ts";
import { amountInput, NUMERIC_STYLE, useMoneyFormat } from "./assets-format.ts";
import { AmountSuffix, CurrencySelect, SwapButton } from "./transfer-fields.tsx";
import { amountLimitRules, available, isWallet, pickCurrency, revalidate } from "./transfer-rules.ts";

interface TransferValues {
  from: TWalletType;
  to: TWalletType;
  currency: string;
  amount: string;
}

export function TransferForm({ assets, currencies }: { assets: AssetsData; currencies: CurrencyInfo[] }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const [params] = useSearchParams();
  const [form] = Form.useForm<TransferValues>();
  const format = useMoneyFormat();
  const invalidateAssets = useInvalidateAssets();
  const client = useTRPCClient();
  const intent = useRequestIntent();
  const transfer = useMutation({
    ...trpc.transfer.create.mutationOptions(),
    mutationFn: withRequestKey(client.transfer.create.mutate, intent),
  });
  const [pending, setPending] = useState<TransferValues | null>(null);
  // Set synchronously, so a second click before the next render cannot send the transfer twice.
  const sending = useRef(false);

  const [initial] = useState<Partial<TransferValues>>(() => {
    const fromParam = params.get("from");
    const toParam = params.get("to");
    const from = isWallet(fromParam) ? fromParam : "exchange";
    const to =
      isWallet(toParam) && toParam !== from ? toParam : from === "exchange" ? "contract" : "exchange";
    return { from, to, currency: pickCurrency(currencies, params.get("currency"), "USDT") };
  });
  const from = Form.useWatch("from", form) ?? initial.from;
  const code = Form.useWatch("currency", form) ?? initial.currency ?? "";
  const currency = currencies.find((c) => c.code === code);
  const decimals = currency?.decimals ?? 8;
  const display = currency?.displayDecimals ?? 2;
  const balance = available(assets, from, code);
  const shape = ZTransferRequestSchema.shape;

  const swap = () => {
    const v = form.getFieldsValue();
    form.setFieldsValue({ from: v.to, to: v.from });
    revalidate(form, ["to", "amount"]);
  };
  const fillAll = () => {
    form.setFieldValue("amount", balance);
    revalidate(form, ["amount"]);
  };

  const confirm = () => {
    if (!pending || sending.current) {
      return;
    }
    sending.current = true;
    transfer.mutate(pending, {
      onSuccess: () => {
        feedback.success(
          t("assets.transfer.done", {
            amount: `${format.exact(pending.amount, 0, 18)} ${pending.currency}`,
            from: t(`assets.wallets.${pending.from}`),
            to: t(`assets.wallets.${pending.to}`),
          }),
        );
        setPending(null);
        form.resetFields(["amount"]);
        void invalidateAssets();
      },
      onError: (error) => {
        setPending(null);
        markRefusedField(form, error);
      },
      onSettled: () => {
        sending.current = false;
      },
    });
  };

  const walletOptions = WALLET_TYPES.map((w) => ({ value: w, label: t(`assets.wallets.${w}`) }));
  const after = pending
    ? new MoneyDecimal(available(assets, pending.from, pending.currency)).minus(pending.amount)
    : null;

  return (
    <>
      <Form<TransferValues>
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={initial}
        onFinish={(values) => setPending(values)}
        disabled={transfer.isPending}
      >
        <Flex gap={8} align="flex-start">
          <Form.Item
            name="from"
            label={t("fields.from")}
            style={{ flex: 1, minWidth: 0 }}
            rules={[zodRule(shape.from, t, "from")]}
          >
            <Select options={walletOptions} data-testid="transfer-from" />
          </Form.Item>
          <SwapButton onClick={swap} label={t("assets.swap")} testId="transfer-swap" />
          <Form.Item
            name="to"
            label={t("fields.to")}
            style={{ flex: 1, minWidth: 0 }}
            dependencies={["from"]}
            rules={[
              zodRule(shape.to, t, "to"),
              // The shared schema's own refinement: two different accounts (SAME_WALLET).
              objectSchemaRule(ZTransferRequestSchema, t, "to", (to) => ({ ...form.getFieldsValue(), to })),
            ]}
          >
            <Select options={walletOptions} data-testid="transfer-to" />
          </Form.Item>
        </Flex>
        <Form.Item
          name="currency"
          label={t("fields.currency")}
          rules={[zodRule(shape.currency, t, "currency")]}
        >
          <CurrencySelect currencies={currencies} testId="transfer-currency" />
        </Form.Item>
        <Form.Item
          name="amount"
          label={t("fields.amount")}
          normalize={amountInput(decimals)}
          dependencies={["from", "currency"]}
          rules={[zodRule(shape.amount, t, "amount"), ...amountLimitRules(t, currency, balance, code)]}
          extra={
            <Flex justify="space-between" gap={8} wrap style={{ marginTop: 4 }}>
              <span>{t("assets.available")}</span>
              <span style={NUMERIC_STYLE} data-testid="transfer-available">
                {format.exact(balance, display, decimals)} {code}
              </span>
            </Flex>
          }
        >
          <Input
            inputMode="decimal"
            autoComplete="off"
            placeholder={t("assets.amountPlaceholder")}
            style={NUMERIC_STYLE}
            suffix={<AmountSuffix code={code} onAll={fillAll} testId="transfer-all" />}
            data-testid="transfer-amount"
          />
        </Form.Item>
        <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
          {t("assets.transfer.note")}
        </Typography.Paragraph>
        <Button type="primary" htmlType="submit" block size="large" data-testid="transfer-submit">
          {t("nav.transfer")}
        </Button>
      </Form>
      <ConfirmModal
        open={pending !== null}
        title={t("assets.transfer.confirmTitle")}
        busy={transfer.isPending}
        onOk={confirm}
        onCancel={() => setPending(null)}
        okTestId="transfer-confirm"
      >
        {pending && (
          <SummaryRows
            rows={[
              { key: "from", label: t("fields.from"), value: t(`assets.wallets.${pending.from}`) },
              { key: "to", label: t("fields.to"), value: t(`assets.wallets.${pending.to}`) },
              {
                key: "amount",
                label: t("fields.amount"),
                value: <strong>{`${format.exact(pending.amount, 0, 18)} ${pending.currency}`}</strong>,
              },
              { key: "fee", label: t("assets.fee"), value: `0 ${pending.currency}` },
              {
                key: "after",
                label: t("assets.transfer.remaining", { account: t(`assets.wallets.${pending.from}`) }),
                value: after
                  ? `${format.exact(after.toFixed(), display, decimals)} ${pending.currency}`
                  : "—",
              },
            ]}
          />
        )}
      </ConfirmModal>
    </>
  );
}
