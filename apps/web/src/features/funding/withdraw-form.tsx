import { KeyOutlined, PlusOutlined, SafetyOutlined } from "@ant-design/icons";
import { zTradePassword } from "@northstar/shared/contracts/common";
import { zAmount } from "@northstar/shared/contracts/funding";
import { money } from "@northstar/shared/money";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Divider, Flex, Form, Input, Segmented, Select, Space, Typography } from "antd";
import { type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { feedback } from "../../lib/feedback.ts";
import { AppLink, useAppNavigate } from "../../lib/navigation.tsx";
import { useRequestIntent, withRequestKey } from "../../lib/request-key.ts";
import { useTRPC, useTRPCClient } from "../../lib/trpc.ts";
import { digitsOnly, markRefusedField } from "../account/account-helpers.ts";
import { useMoneyFormat } from "../assets/assets-format.ts";
import { ConfirmModal } from "../common/confirm-summary-dialog.tsx";
import { Amount } from "./amount.tsx";
import { decimalsRule, fieldRule } from "./amount-rules.ts";
import { percentOf, plainAmount } from "./amount-text.ts";
import type { WithdrawalTerms } from "./funding-types.ts";
import { KeyValue } from "./key-value.tsx";
import { useCurrencyDecimals } from "./use-currency-decimals.ts";
import { AddressLabel, CardLabel } from "./withdrawal-destination.tsx";
import { googleCodeRule, quote, withdrawAmountRule, withdrawalBlockers } from "./withdrawal-rules.ts";
import "./funding.css";

/** The page's own path, where the pages it links to send the user back. */
export const WITHDRAW_PAGE_PATH = "/authenticationcj";

interface WithdrawValues {
  method: "crypto" | "bank";
  currency: string;
  address_id?: number;
  bank_card_id?: number;
  amount: string;
  trade_password: string;
  google_code?: string;
}

export function WithdrawForm({ terms }: { terms: WithdrawalTerms }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const go = useAppNavigate();
  const [form] = Form.useForm<WithdrawValues>();
  const [confirming, setConfirming] = useState<WithdrawValues | null>(null);
  const addresses = useQuery(trpc.withdrawalAddress.getMany.queryOptions());
  const cards = useQuery(trpc.bankCard.getMany.queryOptions());
  const assets = useQuery(trpc.asset.get.queryOptions());
  const client = useTRPCClient();
  const intent = useRequestIntent();
  const create = useMutation({
    ...trpc.withdrawal.create.mutationOptions(),
    mutationFn: withRequestKey(client.withdrawal.create.mutate, intent),
  });

  const cryptoCurrencies = Object.keys(terms.chains);
  const method = Form.useWatch("method", form) ?? "crypto";
  const exchangeRows = (assets.data?.rows ?? []).filter((r) => r.wallet === "exchange");
  const currencies =
    method === "crypto" || exchangeRows.length === 0 ? cryptoCurrencies : exchangeRows.map((r) => r.currency);
  const currency = Form.useWatch("currency", form) ?? cryptoCurrencies[0] ?? "USDT";
  const amount = Form.useWatch("amount", form);
  const allowedChains = terms.chains[currency] ?? [];
  const usableAddresses = (addresses.data ?? []).filter(
    (a) => a.currency === currency && allowedChains.includes(a.chain),
  );
  const available = exchangeRows.find((r) => r.currency === currency)?.available ?? "0";
  const decimalsOf = useCurrencyDecimals();
  const format = useMoneyFormat();
  const decimals = decimalsOf(currency);
  const fees = quote(amount?.trim(), terms.feeRate, decimals);

  const blockers = withdrawalBlockers(terms, t, format.grouped);
  const amountRule = withdrawAmountRule(
    t,
    {
      currency,
      available: assets.data ? available : undefined,
      minUsdt: terms.minUsdt,
      maxUsdt: terms.maxUsdt,
    },
    format.grouped,
  );
  const googleRule = googleCodeRule(t);

  const submit = () => {
    if (!confirming) {
      return;
    }
    create.mutate(
      {
        method: confirming.method,
        currency: confirming.currency,
        address_id: confirming.method === "crypto" ? confirming.address_id : undefined,
        bank_card_id: confirming.method === "bank" ? confirming.bank_card_id : undefined,
        amount: confirming.amount.trim(),
        trade_password: confirming.trade_password,
        google_code: terms.googleBound ? confirming.google_code : undefined,
      },
      {
        onSuccess: () => {
          setConfirming(null);
          feedback.success(t("funding.withdraw.submitted"));
          void queryClient.invalidateQueries({ queryKey: trpc.withdrawal.pathKey() });
          void queryClient.invalidateQueries({ queryKey: trpc.asset.pathKey() });
          go("/tbjl");
        },
        onError: (error) => {
          setConfirming(null);
          markRefusedField(form, error);
        },
      },
    );
  };

  const destination = (values: WithdrawValues): ReactNode => {
    if (values.method === "crypto") {
      const a = addresses.data?.find((x) => x.id === values.address_id);
      return a ? <AddressLabel address={a} full /> : "—";
    }
    const c = cards.data?.find((x) => x.id === values.bank_card_id);
    return c ? <CardLabel card={c} /> : "—";
  };

  const back = encodeURIComponent(WITHDRAW_PAGE_PATH);

  return (
    <>
      {blockers.length > 0 && (
        <Alert
          type="warning"
          showIcon
          title={t("funding.withdraw.blocked")}
          description={
            <ul style={{ margin: 0, paddingInlineStart: 18 }}>
              {blockers.map((b) => (
                <li key={b}>{b}</li>
              ))}
            </ul>
          }
          data-testid="withdraw-blocked"
        />
      )}
      <Form
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={{ method: "crypto", currency: cryptoCurrencies[0] ?? "USDT" }}
        onFinish={(values) => setConfirming({ ...values, currency })}
        disabled={create.isPending}
        onValuesChange={(changed: Partial<WithdrawValues>) => {
          if (changed.method) {
            form.setFieldsValue({ currency: cryptoCurrencies[0] ?? "USDT", address_id: undefined });
          }
          if (changed.currency) {
            form.setFieldsValue({ address_id: undefined });
          }
          if ((changed.method || changed.currency) && form.getFieldValue("amount")) {
            void form.validateFields(["amount"]).catch(() => undefined);
          }
        }}
      >
        <Form.Item name="method" label={t("fields.method")}>
          <Segmented
            block
            options={[
              {
                value: "crypto",
                label: <span data-testid="withdraw-method-crypto">{t("funding.withdraw.methodCrypto")}</span>,
              },
              {
                value: "bank",
                label: <span data-testid="withdraw-method-bank">{t("funding.withdraw.methodBank")}</span>,
              },
            ]}
          />
        </Form.Item>
        <Form.Item name="currency" label={t("fields.currency")}>
          <Select
            options={currencies.map((c) => ({ value: c, label: c }))}
            data-testid="withdraw-currency"
            aria-label={t("fields.currency")}
          />
        </Form.Item>

        {method === "crypto" ? (
          <Form.Item
            name="address_id"
            label={t("fields.addressId")}
            rules={[{ required: true, message: t("funding.withdraw.chooseAddress") }]}
            extra={
              <Flex justify="space-between" gap={8} wrap>
                <span>
                  {t("funding.withdraw.addressHelp", { currency, chains: allowedChains.join(", ") || "—" })}
                </span>
                <AppLink to={`/walletAdd?redirect=${back}`}>
                  <PlusOutlined /> {t("funding.address.add")}
                </AppLink>
              </Flex>
            }
          >
            <Select
              loading={addresses.isPending}
              placeholder={t("funding.withdraw.chooseAddress")}
              notFoundContent={t("funding.withdraw.noAddress", { currency })}
              options={usableAddresses.map((a) => ({
                value: a.id,
                label: <AddressLabel address={a} />,
              }))}
              data-testid="withdraw-address"
              aria-label={t("fields.addressId")}
            />
          </Form.Item>
        ) : (
          <Form.Item
            name="bank_card_id"
            label={t("fields.bankCardId")}
            rules={[{ required: true, message: t("funding.withdraw.chooseCard") }]}
            extra={
              <Flex justify="flex-end">
                <AppLink to={`/bankAdd?redirect=${back}`}>
                  <PlusOutlined /> {t("funding.bank.add")}
                </AppLink>
              </Flex>
            }
          >
            <Select
              loading={cards.isPending}
              placeholder={t("funding.withdraw.chooseCard")}
              notFoundContent={t("funding.withdraw.noCard")}
              options={(cards.data ?? []).map((c) => ({ value: c.id, label: <CardLabel card={c} /> }))}
              data-testid="withdraw-card"
              aria-label={t("fields.bankCardId")}
            />
          </Form.Item>
        )}

        <Form.Item
          label={t("fields.amount")}
          required
          extra={
            <Typography.Text type="secondary" data-testid="withdraw-available">
              {t("funding.withdraw.available")} <Amount value={available} currency={currency} />
            </Typography.Text>
          }
        >
          <Space.Compact style={{ width: "100%" }}>
            <Form.Item
              name="amount"
              noStyle
              rules={[
                fieldRule(zAmount, t, t("fields.amount")),
                decimalsRule(t, currency, decimals),
                amountRule,
              ]}
              normalize={(v: string) => v.replace(/[^\d.]/g, "")}
            >
              <Input
                inputMode="decimal"
                autoComplete="off"
                suffix={currency}
                className="ns-num"
                placeholder={currency === "USDT" ? `≥ ${plainAmount(terms.minUsdt)}` : undefined}
                data-testid="withdraw-amount"
              />
            </Form.Item>
            <Button
              onClick={() => {
                form.setFieldValue("amount", plainAmount(available));
                void form.validateFields(["amount"]).catch(() => undefined);
              }}
              disabled={money(available).isZero()}
              data-testid="withdraw-all"
            >
              {t("funding.withdraw.all")}
            </Button>
          </Space.Compact>
        </Form.Item>

        <Flex
          vertical
          gap={6}
          style={{ marginTop: 8, marginBottom: 24 }}
          aria-live="polite"
          data-testid="withdraw-quote"
        >
          <KeyValue label={t("funding.withdraw.feeLabel", { rate: percentOf(terms.feeRate) })}>
            <span data-testid="withdraw-fee">
              {fees ? <Amount value={fees.fee} currency={currency} /> : "—"}
            </span>
          </KeyValue>
          <KeyValue label={t("funding.records.received")}>
            <span data-testid="withdraw-received">
              {fees ? <Amount value={fees.received} currency={currency} strong /> : "—"}
            </span>
          </KeyValue>
        </Flex>

        <Form.Item
          name="trade_password"
          label={t("fields.tradePassword")}
          rules={[fieldRule(zTradePassword, t, t("fields.tradePassword"))]}
          normalize={digitsOnly(6)}
          extra={
            <AppLink to={`/editPasswordTrade?redirect=${back}`}>{t("funding.withdraw.forgotTrade")}</AppLink>
          }
        >
          <Input.Password
            prefix={<KeyOutlined />}
            inputMode="numeric"
            maxLength={6}
            autoComplete="off"
            data-testid="withdraw-trade-password"
          />
        </Form.Item>
        {terms.googleBound && (
          <Form.Item
            name="google_code"
            label={t("fields.googleCode")}
            rules={[googleRule]}
            normalize={digitsOnly(6)}
          >
            <Input
              prefix={<SafetyOutlined />}
              inputMode="numeric"
              maxLength={6}
              autoComplete="one-time-code"
              data-testid="withdraw-google-code"
            />
          </Form.Item>
        )}
        <Button
          type="primary"
          htmlType="submit"
          block
          size="large"
          loading={create.isPending}
          disabled={blockers.length > 0}
          data-testid="withdraw-submit"
        >
          {t("funding.withdraw.submit")}
        </Button>
      </Form>

      <ConfirmModal
        open={confirming !== null}
        title={t("funding.withdraw.confirmTitle")}
        busy={create.isPending}
        onOk={submit}
        onCancel={() => setConfirming(null)}
        okTestId="withdraw-confirm"
      >
        {confirming && (
          <Flex vertical gap={8} data-testid="withdraw-summary">
            <KeyValue label={t("fields.amount")}>
              <Amount value={confirming.amount} currency={confirming.currency} />
            </KeyValue>
            <KeyValue label={t("funding.withdraw.feeLabel", { rate: percentOf(terms.feeRate) })}>
              <Amount
                value={
                  quote(confirming.amount.trim(), terms.feeRate, decimalsOf(confirming.currency))?.fee ?? "0"
                }
                currency={confirming.currency}
              />
            </KeyValue>
            <KeyValue label={t("funding.records.received")}>
              <Amount
                value={
                  quote(confirming.amount.trim(), terms.feeRate, decimalsOf(confirming.currency))?.received ??
                  "0"
                }
                currency={confirming.currency}
                strong
              />
            </KeyValue>
            <Divider style={{ marginBlock: 4 }} />
            <KeyValue label={t("funding.records.destination")}>{destination(confirming)}</KeyValue>
            <Alert type="info" showIcon title={t("funding.withdraw.reviewNote")} style={{ marginTop: 8 }} />
          </Flex>
        )}
      </ConfirmModal>
    </>
  );
}
