import { SwapOutlined } from "@ant-design/icons";
import {
  type TWalletType,
  WALLET_TYPES,
  ZConvertQuoteRequestSchema,
  ZTransferRequestSchema,
  zAmount,
} from "@northstar/shared/contracts/funding";
import { MoneyDecimal } from "@northstar/shared/money";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  Alert,
  Button,
  Flex,
  Form,
  type FormInstance,
  type FormRule,
  Input,
  Select,
  type SelectProps,
  Tabs,
  Typography,
  theme,
} from "antd";
import type { TFunction } from "i18next";
import { type ReactNode, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { feedback } from "../../lib/feedback.ts";
import { zodRule } from "../../lib/form-rules.ts";
import { usePolicy } from "../../lib/policy.ts";
import { useRequestIntent, withRequestKey } from "../../lib/request-key.ts";
import { toApiError, useTRPC, useTRPCClient } from "../../lib/trpc.ts";
import { markRefusedField } from "../account/account-helpers.ts";
import { ConfirmModal, SummaryRows } from "../common/confirm-summary-dialog.tsx";
import { Page } from "../common/page.tsx";
import { ErrorState, LoadingState } from "../common/page-states.tsx";
import {
  type AssetsData,
  type ConversionQuote,
  type CurrencyInfo,
  objectSchemaRule,
  useAssets,
  useCurrencies,
  useDebouncedValue,
  useInvalidateAssets,
} from "./assets-data.ts";
import { amountInput, decimalPlaces, NUMERIC_STYLE, useMoneyFormat } from "./assets-format.ts";
import { CurrencyMark } from "./currency-mark.tsx";

const isWallet = (v: string | null): v is TWalletType =>
  v !== null && (WALLET_TYPES as readonly string[]).includes(v);

/**
 * /transfer: moving funds between the user's own accounts, and converting one currency into another
 * in the exchange account. `?tab=convert` opens the second; `?from=`, `?to=` and `?currency=` preset
 * the fields (the asset rows link here).
 */
export function TransferPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const assets = useAssets();
  const currencies = useCurrencies();
  const tab = params.get("tab") === "convert" ? "convert" : "transfer";

  let body: (kind: "transfer" | "convert") => ReactNode;
  if (assets.isPending || currencies.isPending) {
    body = () => <LoadingState rows={6} />;
  } else if (assets.isError || currencies.isError) {
    body = () => (
      <ErrorState
        onRetry={() => {
          void assets.refetch();
          void currencies.refetch();
        }}
      />
    );
  } else {
    body = (kind) =>
      kind === "transfer" ? (
        <TransferForm assets={assets.data} currencies={currencies.data} />
      ) : (
        <ConvertForm assets={assets.data} currencies={currencies.data} />
      );
  }

  return (
    <Page title={t("nav.transfer")} width={560}>
      <Tabs
        activeKey={tab}
        onChange={(key) => setParams(key === "convert" ? { tab: "convert" } : {}, { replace: true })}
        style={{ marginTop: -12 }}
        items={[
          {
            key: "transfer",
            label: <span data-testid="transfer-tab-transfer">{t("nav.transfer")}</span>,
            children: body("transfer"),
          },
          {
            key: "convert",
            label: <span data-testid="transfer-tab-convert">{t("assets.convert.tab")}</span>,
            children: body("convert"),
          },
        ]}
      />
    </Page>
  );
}

/** The first currency that exists among `wanted`, else the first one the platform holds. */
function pickCurrency(currencies: CurrencyInfo[], ...wanted: (string | null | undefined)[]): string {
  for (const code of wanted) {
    const upper = code?.toUpperCase();
    if (upper && currencies.some((c) => c.code === upper)) {
      return upper;
    }
  }
  return currencies[0]?.code ?? "USDT";
}

const available = (assets: AssetsData, wallet: string | undefined, currency: string | undefined) =>
  assets.rows.find((r) => r.wallet === wallet && r.currency === currency)?.available ?? "0";

/**
 * The amount rules beyond the shared schema's: no more decimals than the currency holds, and no more
 * than the account has (the server refuses both too; saying so here saves a round trip).
 */
function amountLimitRules(
  t: TFunction,
  currency: CurrencyInfo | undefined,
  balance: string,
  translatedCurrency: string,
): FormRule[] {
  return [
    {
      validator: async (_, value: string | undefined) => {
        if (currency && value && decimalPlaces(value) > currency.decimals) {
          throw new Error(
            t("assets.tooManyDecimals", { decimals: currency.decimals, currency: translatedCurrency }),
          );
        }
      },
    },
    {
      validator: async (_, value: string | undefined) => {
        if (value && zAmount.safeParse(value).success) {
          if (new MoneyDecimal(value).gt(balance)) {
            throw new Error(t("errors.INSUFFICIENT_BALANCE"));
          }
        }
      },
    },
  ];
}

/** Re-checks the named fields after a programmatic change (swap, "All"), skipping empty untouched ones. */
function revalidate(form: FormInstance, names: string[]) {
  const touched = names.filter((n) => form.isFieldTouched(n) || form.getFieldValue(n));
  if (touched.length > 0) {
    form.validateFields(touched).catch(() => undefined);
  }
}

function currencyOptions(currencies: CurrencyInfo[]) {
  return currencies.map((c) => ({
    value: c.code,
    label: `${c.code} · ${c.name}`,
    search: `${c.code} ${c.name}`,
  }));
}

/** A currency picker: the list shows code and name, the closed box the mark and code (fits a phone). */
function CurrencySelect({
  currencies,
  testId,
  ...props
}: SelectProps<string> & { currencies: CurrencyInfo[]; testId: string }) {
  return (
    <Select<string>
      {...props}
      options={currencyOptions(currencies)}
      showSearch={{ optionFilterProp: "search" }}
      labelRender={({ value }) => (
        <Flex align="center" gap={6} style={{ height: "100%" }}>
          <CurrencyMark code={String(value)} size={20} />
          <span>{String(value)}</span>
        </Flex>
      )}
      data-testid={testId}
    />
  );
}

/** The "All" link and the currency code at the end of an amount field. */
function AmountSuffix({ code, onAll, testId }: { code: string; onAll: () => void; testId: string }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  return (
    <Flex align="center" gap={10}>
      <Typography.Text type="secondary">{code}</Typography.Text>
      <span style={{ width: 1, height: 14, background: token.colorSplit }} />
      <Typography.Link onClick={onAll} data-testid={testId}>
        {t("assets.all")}
      </Typography.Link>
    </Flex>
  );
}

/** A swap button between two selects, aligned with the controls rather than their labels. */
function SwapButton({ onClick, label, testId }: { onClick: () => void; label: string; testId: string }) {
  const { token } = theme.useToken();
  return (
    <Button
      shape="circle"
      icon={<SwapOutlined />}
      onClick={onClick}
      aria-label={label}
      title={label}
      data-testid={testId}
      style={{ flex: "none", marginTop: Math.round(token.fontSize * token.lineHeight) + token.paddingXS }}
    />
  );
}

interface TransferValues {
  from: TWalletType;
  to: TWalletType;
  currency: string;
  amount: string;
}

function TransferForm({ assets, currencies }: { assets: AssetsData; currencies: CurrencyInfo[] }) {
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

interface ConvertValues {
  from: string;
  to: string;
  amount: string;
}

/**
 * Conversion in the exchange account. As the user types, a quote (debounced) shows the price with
 * the spread already taken, the spread itself and what they receive; the confirmation repeats it and
 * the order carries the quoted price, so a moved price is refused (PRICE_CHANGED) and re-quoted.
 */
function ConvertForm({ assets, currencies }: { assets: AssetsData; currencies: CurrencyInfo[] }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const trpc = useTRPC();
  const [params] = useSearchParams();
  const [form] = Form.useForm<ConvertValues>();
  const format = useMoneyFormat();
  const policy = usePolicy();
  const queryClient = useQueryClient();
  const invalidateAssets = useInvalidateAssets();
  const client = useTRPCClient();
  const intent = useRequestIntent();
  const convert = useMutation({
    ...trpc.conversion.create.mutationOptions(),
    mutationFn: withRequestKey(client.conversion.create.mutate, intent),
  });
  const [confirming, setConfirming] = useState<ConversionQuote | null>(null);
  const [priceMoved, setPriceMoved] = useState(false);
  const sending = useRef(false);

  const [initial] = useState<ConvertValues>(() => {
    const from = pickCurrency(currencies, params.get("from"), "USDT");
    const to = pickCurrency(
      currencies.filter((c) => c.code !== from),
      params.get("to"),
      from === "USDT" ? "BTC" : "USDT",
    );
    return { from, to, amount: "" };
  });
  const from = Form.useWatch("from", form) ?? initial.from;
  const to = Form.useWatch("to", form) ?? initial.to;
  const amount = Form.useWatch("amount", form) ?? "";
  const fromInfo = currencies.find((c) => c.code === from);
  const toInfo = currencies.find((c) => c.code === to);
  const balance = available(assets, "exchange", from);
  // The spread users are told about is the policy value the server applies; a quote carries the
  // value it used, which wins if the policy changed since this page loaded it.
  const percent = (spread: string | number) => new MoneyDecimal(spread).times(100).toFixed();
  const spreadPercent = percent(policy["funding.convert.spread"]);

  // Quote only what the server could accept, once the user has stopped typing.
  const quotable = (f: string, t2: string, a: string) =>
    f !== t2 &&
    ZConvertQuoteRequestSchema.safeParse({ from: f, to: t2, amount: a }).success &&
    decimalPlaces(a) <= (currencies.find((c) => c.code === f)?.decimals ?? 0);
  const typed = `${from}|${to}|${amount}`;
  const settled = useDebouncedValue(typed, 400);
  const [qFrom = "", qTo = "", qAmount = ""] = settled.split("|");
  const quote = useQuery(
    trpc.conversion.quote.queryOptions(
      { from: qFrom, to: qTo, amount: qAmount },
      {
        enabled: quotable(qFrom, qTo, qAmount) && confirming === null,
        // Prices move: keep the shown quote fresh while the user reads it.
        refetchInterval: confirming === null ? 15_000 : false,
        staleTime: 5_000,
      },
    ),
  );
  const current =
    quote.data && quote.data.from === from && quote.data.to === to && quote.data.amount === amount
      ? quote.data
      : undefined;
  const waiting = quotable(from, to, amount) && !current && (settled !== typed || quote.isFetching);

  const swap = () => {
    const v = form.getFieldsValue();
    form.setFieldsValue({ from: v.to, to: v.from, amount: "" });
  };
  const fillAll = () => {
    form.setFieldValue("amount", balance);
    revalidate(form, ["amount"]);
  };

  const submit = () => {
    if (current) {
      setPriceMoved(false);
      setConfirming(current);
    }
  };

  const confirm = () => {
    if (!confirming || sending.current) {
      return;
    }
    sending.current = true;
    const order = confirming;
    convert.mutate(
      { from: order.from, to: order.to, amount: order.amount, price: order.price },
      {
        onSuccess: () => {
          feedback.success(
            t("assets.convert.done", {
              paid: `${format.exact(order.amount, 0, 18)} ${order.from}`,
              received: `${format.exact(order.received, 0, 18)} ${order.to}`,
            }),
          );
          setConfirming(null);
          form.setFieldValue("amount", "");
          void invalidateAssets();
        },
        onError: async (error) => {
          if (toApiError(error).errorCode === "PRICE_CHANGED") {
            // The client rules already said so; show the new quote here and ask again.
            void queryClient.invalidateQueries(trpc.policy.getPublic.queryFilter());
            const fresh = await quote.refetch();
            setPriceMoved(fresh.data !== undefined);
            setConfirming(fresh.data ?? null);
            return;
          }
          setConfirming(null);
          markRefusedField(form, error);
        },
        onSettled: () => {
          sending.current = false;
        },
      },
    );
  };

  // The form and the confirmation show the same rows; their test ids differ so each is found once.
  const quoteRows = (q: ConversionQuote | undefined, id = "convert") => [
    {
      key: "price",
      label: t("fields.price"),
      value: q ? (
        <span data-testid={`${id}-price`}>
          {t("assets.convert.priceValue", format.rate(q.from, q.to, q.price))}
        </span>
      ) : (
        <span data-testid={`${id}-price`}>{waiting ? t("assets.convert.quoting") : "—"}</span>
      ),
    },
    {
      key: "spread",
      label: t("assets.convert.spread"),
      value: <span data-testid={`${id}-spread`}>{`${q ? percent(q.spread) : spreadPercent}%`}</span>,
    },
    {
      key: "received",
      label: t("assets.convert.received"),
      value: (
        <strong data-testid={`${id}-received`}>
          {q ? `${format.exact(q.received, toInfo?.displayDecimals ?? 2, 18)} ${q.to}` : "—"}
        </strong>
      ),
    },
  ];

  const quoteError =
    settled === typed && quotable(from, to, amount) && quote.isError && !quote.isFetching
      ? toApiError(quote.error).message
      : null;

  return (
    <>
      <Form<ConvertValues>
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={initial}
        onFinish={submit}
        disabled={convert.isPending}
      >
        <Flex gap={8} align="flex-start">
          <Form.Item
            name="from"
            label={t("assets.convert.fromCurrency")}
            style={{ flex: 1, minWidth: 0 }}
            rules={[zodRule(ZConvertQuoteRequestSchema.shape.from, t, "from")]}
          >
            <CurrencySelect currencies={currencies} testId="convert-from" />
          </Form.Item>
          <SwapButton onClick={swap} label={t("assets.swap")} testId="convert-swap" />
          <Form.Item
            name="to"
            label={t("assets.convert.toCurrency")}
            style={{ flex: 1, minWidth: 0 }}
            dependencies={["from"]}
            rules={[
              zodRule(ZConvertQuoteRequestSchema.shape.to, t, "to"),
              {
                validator: async (_, value: string | undefined) => {
                  if (value && value === form.getFieldValue("from")) {
                    throw new Error(t("assets.convert.sameCurrency"));
                  }
                },
              },
            ]}
          >
            <CurrencySelect currencies={currencies} testId="convert-to" />
          </Form.Item>
        </Flex>
        <Form.Item
          name="amount"
          label={t("fields.amount")}
          normalize={amountInput(fromInfo?.decimals ?? 8)}
          dependencies={["from"]}
          rules={[
            zodRule(ZConvertQuoteRequestSchema.shape.amount, t, "amount"),
            ...amountLimitRules(t, fromInfo, balance, from),
          ]}
          extra={
            <Flex justify="space-between" gap={8} wrap style={{ marginTop: 4 }}>
              <span>{t("assets.convert.availableIn", { account: t("assets.wallets.exchange") })}</span>
              <span style={NUMERIC_STYLE} data-testid="convert-available">
                {format.exact(balance, fromInfo?.displayDecimals ?? 2, fromInfo?.decimals ?? 8)} {from}
              </span>
            </Flex>
          }
        >
          <Input
            inputMode="decimal"
            autoComplete="off"
            placeholder={t("assets.amountPlaceholder")}
            style={NUMERIC_STYLE}
            suffix={<AmountSuffix code={from} onAll={fillAll} testId="convert-all" />}
            data-testid="convert-amount"
          />
        </Form.Item>
        <div style={{ marginBottom: token.marginMD }} data-testid="convert-quote">
          <SummaryRows rows={quoteRows(current)} />
          {quoteError && (
            <Alert type="warning" showIcon title={quoteError} style={{ marginTop: token.marginSM }} />
          )}
          <Typography.Paragraph
            type="secondary"
            style={{ fontSize: 12, marginTop: token.marginSM, marginBottom: 0 }}
          >
            {t("assets.convert.note", { percent: current ? percent(current.spread) : spreadPercent })}
          </Typography.Paragraph>
        </div>
        <Button
          type="primary"
          htmlType="submit"
          block
          size="large"
          disabled={!current}
          loading={waiting}
          data-testid="convert-submit"
        >
          {t("assets.convert.submit")}
        </Button>
      </Form>
      <ConfirmModal
        open={confirming !== null}
        title={t("assets.convert.confirmTitle")}
        busy={convert.isPending || (confirming !== null && quote.isFetching)}
        onOk={confirm}
        onCancel={() => setConfirming(null)}
        okTestId="convert-confirm"
      >
        {confirming && (
          <Flex vertical gap={12}>
            {priceMoved && <Alert type="warning" showIcon title={t("assets.convert.priceMoved")} />}
            <SummaryRows
              rows={[
                {
                  key: "pay",
                  label: t("assets.convert.pay"),
                  value: <strong>{`${format.exact(confirming.amount, 0, 18)} ${confirming.from}`}</strong>,
                },
                ...quoteRows(confirming, "convert-confirm").map((r) => ({ ...r, key: `confirm-${r.key}` })),
              ]}
            />
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t("assets.convert.note", { percent: percent(confirming.spread) })}
            </Typography.Text>
            <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="convert-tolerance">
              {t("assets.convert.tolerance", { percent: percent(policy["funding.convert.priceTolerance"]) })}
            </Typography.Text>
          </Flex>
        )}
      </ConfirmModal>
    </>
  );
}
