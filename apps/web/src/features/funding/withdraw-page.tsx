import {
  CheckCircleFilled,
  ClockCircleOutlined,
  HistoryOutlined,
  KeyOutlined,
  PlusOutlined,
  SafetyOutlined,
} from "@ant-design/icons";
import { zTradePassword } from "@northstar/shared/contracts/common";
import { zAmount } from "@northstar/shared/contracts/funding";
import { LANGUAGE_INFO } from "@northstar/shared/languages";
import { MoneyDecimal, money } from "@northstar/shared/money";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { FormRule } from "antd";
import {
  Alert,
  Button,
  Divider,
  Flex,
  Form,
  Input,
  Modal,
  Progress,
  Result,
  Segmented,
  Select,
  Space,
  Tag,
  Typography,
  theme,
} from "antd";
import { type ReactNode, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { feedback } from "../../lib/feedback.ts";
import { AppLink, useAppNavigate } from "../../lib/navigation.tsx";
import { useRequestIntent, withRequestKey } from "../../lib/request-key.ts";
import { useLanguage } from "../../lib/session.ts";
import { useTRPC, useTRPCClient } from "../../lib/trpc.ts";
import { digitsOnly, markRefusedField } from "../account/account-helpers.ts";
import { Page } from "../common/page.tsx";
import { ErrorState, LoadingState } from "../common/page-states.tsx";
import {
  Amount,
  type BankCard,
  decimalsRule,
  fieldRule,
  groupDigits,
  KeyValue,
  maskCard,
  plainAmount,
  RealAccountOnly,
  shorten,
  useCurrencyDecimals,
  type WithdrawalAddress,
  type WithdrawalTerms,
} from "./funding-shared.tsx";

const HERE = "/authenticationcj";

/** /authenticationcj: every withdrawal rule first, then the form, a summary to confirm, and the records. */
export function WithdrawPage() {
  const { t } = useTranslation();
  const go = useAppNavigate();
  return (
    <Page
      title={t("nav.withdraw")}
      width={720}
      extra={
        <Button icon={<HistoryOutlined />} onClick={() => go("/tbjl")} data-testid="withdraw-records">
          {t("funding.common.records")}
        </Button>
      }
    >
      <RealAccountOnly>
        <Withdraw />
      </RealAccountOnly>
    </Page>
  );
}

function Withdraw() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const go = useAppNavigate();
  // The window opens and closes with the clock: the terms are read again every minute.
  const terms = useQuery(trpc.withdrawal.terms.queryOptions(undefined, { refetchInterval: 60_000 }));
  if (terms.isPending) {
    return <LoadingState rows={8} />;
  }
  if (terms.isError) {
    return <ErrorState onRetry={() => void terms.refetch()} />;
  }
  return (
    <Flex vertical gap={24}>
      <TermsPanel terms={terms.data} />
      {terms.data.tradePasswordSet ? (
        <WithdrawForm terms={terms.data} />
      ) : (
        <Result
          status="warning"
          icon={<KeyOutlined />}
          title={t("errors.TRADE_PASSWORD_NOT_SET")}
          data-testid="withdraw-trade-password-missing"
          extra={
            <Button type="primary" onClick={() => go(`/bindmpwd?redirect=${encodeURIComponent(HERE)}`)}>
              {t("funding.withdraw.setTradePassword")}
            </Button>
          }
        />
      )}
    </Flex>
  );
}

/** The time-zone name in the interface language ("Hong Kong Time", "香港时间"), from the policy's zone. */
function useZoneClock(timeZone: string): { zone: string; now: string } {
  const lang = useLanguage();
  return useMemo(() => {
    const locale = LANGUAGE_INFO[lang].bcp47;
    try {
      const zone =
        new Intl.DateTimeFormat(locale, { timeZone, timeZoneName: "longGeneric" })
          .formatToParts(new Date())
          .find((p) => p.type === "timeZoneName")?.value ?? timeZone;
      const now = new Intl.DateTimeFormat(locale, { timeZone, timeStyle: "short" }).format(new Date());
      return { zone, now };
    } catch {
      return { zone: timeZone, now: "" };
    }
  }, [lang, timeZone]);
}

const pad = (hour: number) => String(hour).padStart(2, "0");
const percentOf = (rate: string) => money(rate).times(100).toFixed();

/** Every rule that limits a withdrawal, with the same policy values the server checks. */
function TermsPanel({ terms }: { terms: WithdrawalTerms }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const clock = useZoneClock(terms.window.timeZone);
  const required = money(terms.turnover.required);
  const done = money(terms.turnover.done);
  const turnoverPercent = required.isZero()
    ? 100
    : Math.min(100, done.div(required).times(100).toDecimalPlaces(1, MoneyDecimal.ROUND_DOWN).toNumber());
  const limitReached = terms.usedToday >= terms.perDay;

  return (
    <section
      data-testid="withdraw-terms"
      style={{
        padding: token.padding,
        borderRadius: token.borderRadiusLG,
        background: token.colorFillQuaternary,
      }}
    >
      <Typography.Title level={5} style={{ marginTop: 0 }}>
        {t("funding.withdraw.termsTitle")}
      </Typography.Title>
      <Flex vertical gap={10}>
        <KeyValue label={t("funding.withdraw.today")}>
          <Space size={6} wrap style={{ justifyContent: "flex-end" }}>
            <Typography.Text strong className="ns-num" data-testid="withdraw-today">
              {t("funding.withdraw.todayValue", { used: terms.usedToday, perDay: terms.perDay })}
            </Typography.Text>
            {limitReached && <Tag color="warning">{t("funding.withdraw.limitReached")}</Tag>}
          </Space>
        </KeyValue>
        <KeyValue label={t("funding.withdraw.limits")}>
          <Typography.Text strong className="ns-num" data-testid="withdraw-limits">
            {t("funding.withdraw.limitsValue", {
              min: groupDigits(terms.minUsdt),
              max: groupDigits(terms.maxUsdt),
            })}
          </Typography.Text>
        </KeyValue>
        <KeyValue label={t("funding.withdraw.window")}>
          <Flex vertical align="flex-end" gap={2}>
            <Space size={6} wrap style={{ justifyContent: "flex-end" }}>
              <Typography.Text strong data-testid="withdraw-window">
                {t("funding.withdraw.windowValue", {
                  start: pad(terms.window.start),
                  end: pad(terms.window.end),
                  zone: clock.zone,
                })}
              </Typography.Text>
              <Tag
                color={terms.windowOpen ? "success" : "default"}
                icon={<ClockCircleOutlined />}
                data-testid="withdraw-window-state"
              >
                {terms.windowOpen ? t("funding.withdraw.openNow") : t("funding.withdraw.closedNow")}
              </Tag>
            </Space>
            {clock.now && (
              <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
                {t("funding.withdraw.zoneNow", { time: clock.now })}
              </Typography.Text>
            )}
          </Flex>
        </KeyValue>
        <KeyValue label={t("funding.withdraw.chains")}>
          <Flex vertical align="flex-end" gap={2} data-testid="withdraw-chains">
            {Object.entries(terms.chains).map(([currency, chains]) => (
              <Typography.Text strong key={currency}>
                {t("funding.withdraw.chainsValue", { currency, chains: chains.join(", ") })}
              </Typography.Text>
            ))}
          </Flex>
        </KeyValue>
        <KeyValue label={t("funding.withdraw.feeRate")}>
          <Typography.Text strong className="ns-num" data-testid="withdraw-fee-rate">
            {t("funding.withdraw.feeRateValue", { rate: percentOf(terms.feeRate) })}
          </Typography.Text>
        </KeyValue>
        <div data-testid="withdraw-turnover">
          <KeyValue label={t("funding.withdraw.turnover")}>
            {terms.turnover.met ? (
              <Tag color="success" icon={<CheckCircleFilled />} style={{ marginInlineEnd: 0 }}>
                {t("funding.withdraw.turnoverMet")}
              </Tag>
            ) : (
              <Tag color="warning" style={{ marginInlineEnd: 0 }}>
                {t("funding.withdraw.turnoverNotMet")}
              </Tag>
            )}
          </KeyValue>
          <Progress
            percent={turnoverPercent}
            status={terms.turnover.met ? "success" : "active"}
            size="small"
            format={(p) => `${p}%`}
            aria-label={t("funding.withdraw.turnover")}
          />
          <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
            {t("funding.withdraw.turnoverValue", {
              done: terms.turnover.done,
              required: terms.turnover.required,
              ratio: percentOf(terms.turnover.ratio),
            })}
          </Typography.Text>
        </div>
        <KeyValue label={t("fields.tradePassword")}>
          {terms.tradePasswordSet ? (
            <Tag color="success" style={{ marginInlineEnd: 0 }}>
              {t("account.security.statusSet")}
            </Tag>
          ) : (
            <Tag color="warning" style={{ marginInlineEnd: 0 }}>
              {t("common.notSet")}
            </Tag>
          )}
        </KeyValue>
        <KeyValue label={t("nav.googleCode")}>
          <Space size={6} wrap style={{ justifyContent: "flex-end" }}>
            {terms.googleBound ? (
              <Tag color="success" style={{ marginInlineEnd: 0 }} data-testid="withdraw-google-state">
                {t("common.bound")}
              </Tag>
            ) : (
              <>
                <Tag style={{ marginInlineEnd: 0 }} data-testid="withdraw-google-state">
                  {t("common.notBound")}
                </Tag>
                <AppLink to="/googleCode">{t("common.bind")}</AppLink>
              </>
            )}
          </Space>
        </KeyValue>
      </Flex>
    </section>
  );
}

interface WithdrawForm {
  method: "crypto" | "bank";
  currency: string;
  address_id?: number;
  bank_card_id?: number;
  amount: string;
  trade_password: string;
  google_code?: string;
}

/**
 * Fee and amount received exactly as the server computes them (`withdrawalFee`): the fee is
 * amount × rate rounded UP to the currency's decimals, and the user receives the rest. Null until
 * the amount is valid and the currency's decimals are known.
 */
function quote(
  amount: string | undefined,
  feeRate: string,
  decimals: number | undefined,
): { fee: string; received: string } | null {
  if (!amount || decimals === undefined || !zAmount.safeParse(amount).success) {
    return null;
  }
  if (money(amount).decimalPlaces() > decimals) {
    return null;
  }
  const fee = money(amount).times(feeRate).toDecimalPlaces(decimals, MoneyDecimal.ROUND_UP);
  return { fee: fee.toFixed(), received: money(amount).minus(fee).toFixed() };
}

function WithdrawForm({ terms }: { terms: WithdrawalTerms }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const go = useAppNavigate();
  const [form] = Form.useForm<WithdrawForm>();
  const [confirming, setConfirming] = useState<WithdrawForm | null>(null);
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
  const decimals = decimalsOf(currency);
  const fees = quote(amount?.trim(), terms.feeRate, decimals);

  const blockers = [
    !terms.windowOpen &&
      t("errors.WITHDRAW_OUTSIDE_WINDOW", { start: terms.window.start, end: terms.window.end }),
    terms.usedToday >= terms.perDay && t("errors.WITHDRAW_DAILY_LIMIT", { count: terms.perDay }),
    !terms.turnover.met &&
      t("errors.WITHDRAW_TURNOVER_REQUIRED", {
        required: terms.turnover.required,
        done: terms.turnover.done,
        ratio: percentOf(terms.turnover.ratio),
      }),
  ].filter((b): b is string => Boolean(b));

  // The same checks as the server, in decimals: balance, and for USDT the per-withdrawal limits.
  const amountRule: FormRule = {
    validator: async (_, value: string | undefined) => {
      if (!value || !zAmount.safeParse(value).success) {
        return;
      }
      const v = money(value);
      if (assets.data && v.greaterThan(available)) {
        throw new Error(t("errors.INSUFFICIENT_BALANCE"));
      }
      if (currency === "USDT" && v.lessThan(terms.minUsdt)) {
        throw new Error(`${t("errors.WITHDRAW_BELOW_MINIMUM")} (${plainAmount(terms.minUsdt)} USDT)`);
      }
      if (currency === "USDT" && v.greaterThan(terms.maxUsdt)) {
        throw new Error(t("errors.WITHDRAW_ABOVE_MAXIMUM", { max: groupDigits(terms.maxUsdt) }));
      }
    },
  };

  const googleRule: FormRule = {
    validator: async (_, value: string | undefined) => {
      if (!value) {
        throw new Error(t("errors.GOOGLE_CODE_REQUIRED"));
      }
      if (!/^\d{6}$/.test(value)) {
        throw new Error(t("errors.GOOGLE_CODE_WRONG"));
      }
    },
  };

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

  const destination = (values: WithdrawForm): ReactNode => {
    if (values.method === "crypto") {
      const a = addresses.data?.find((x) => x.id === values.address_id);
      return a ? <AddressLabel address={a} full /> : "—";
    }
    const c = cards.data?.find((x) => x.id === values.bank_card_id);
    return c ? <CardLabel card={c} /> : "—";
  };

  const back = encodeURIComponent(HERE);

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
        onValuesChange={(changed: Partial<WithdrawForm>) => {
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

      <Modal
        open={confirming !== null}
        title={t("funding.withdraw.confirmTitle")}
        okText={t("common.confirm")}
        cancelText={t("common.cancel")}
        onOk={submit}
        onCancel={() => !create.isPending && setConfirming(null)}
        confirmLoading={create.isPending}
        okButtonProps={{ "data-testid": "withdraw-confirm" }}
        cancelButtonProps={{ disabled: create.isPending }}
        maskClosable={false}
        destroyOnHidden
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
      </Modal>
    </>
  );
}

function AddressLabel({ address, full }: { address: WithdrawalAddress; full?: boolean }) {
  return (
    <span className={full ? "ns-break" : undefined}>
      {address.remark ? `${address.remark} · ` : ""}
      {address.chain} · {full ? address.address : shorten(address.address)}
      {full && address.memo ? ` · ${address.memo}` : ""}
    </span>
  );
}

function CardLabel({ card }: { card: BankCard }) {
  return (
    <span>
      {card.bankName} · {maskCard(card.cardId)} · {card.payeeName}
    </span>
  );
}
