import { ZConvertQuoteRequestSchema } from "@northstar/shared/contracts/funding";
import { MoneyDecimal } from "@northstar/shared/money";
import { useMutation, useQuery } from "@tanstack/react-query";
import { Alert, Button, Flex, Form, Input, Typography, theme } from "antd";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { feedback } from "../../lib/feedback.ts";
import { zodRule } from "../../lib/form-rules.ts";
import { usePolicy } from "../../lib/policy.ts";
import { useRequestIntent, withRequestKey } from "../../lib/request-key.ts";
import { toApiError, useTRPC, useTRPCClient } from "../../lib/trpc.ts";
import { markRefusedField } from "../account/account-helpers.ts";
import { ConfirmModal, SummaryRows } from "../common/confirm-summary-dialog.tsx";
import {
  type AssetsData,
  type ConversionFirmQuote,
  type ConversionQuote,
  type CurrencyInfo,
  useDebouncedValue,
  useInvalidateAssets,
} from "./assets-data.ts";
import { amountInput, decimalPlaces, NUMERIC_STYLE, useMoneyFormat } from "./assets-format.ts";
import { AmountSuffix, CurrencySelect, SwapButton } from "./transfer-fields.tsx";
import { amountLimitRules, available, pickCurrency, revalidate } from "./transfer-rules.ts";

interface ConvertValues {
  from: string;
  to: string;
  amount: string;
}

/**
 * Conversion in the exchange account. As the user types, an indicative quote (debounced) shows the
 * price with the spread already taken, the spread itself and what they would receive. Converting asks
 * the server for a firm quote, shown in the confirmation with the seconds it lasts: confirming converts
 * exactly that quote, and the toast states what was credited; an expired quote converts nothing and is
 * replaced by a new one on request.
 */
export function ConvertForm({ assets, currencies }: { assets: AssetsData; currencies: CurrencyInfo[] }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const trpc = useTRPC();
  const [params] = useSearchParams();
  const [form] = Form.useForm<ConvertValues>();
  const format = useMoneyFormat();
  const policy = usePolicy();
  const invalidateAssets = useInvalidateAssets();
  const client = useTRPCClient();
  const intent = useRequestIntent();
  const convert = useMutation({
    ...trpc.conversion.create.mutationOptions(),
    mutationFn: withRequestKey(client.conversion.create.mutate, intent),
  });
  const firmQuote = useMutation(trpc.conversion.createQuote.mutationOptions());
  const [confirming, setConfirming] = useState<FirmQuote | null>(null);
  const [expired, setExpired] = useState(false);
  const secondsLeft = useSecondsLeft(confirming);
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

  // A firm quote for what the form says; the confirmation shows it and the seconds it lasts.
  const requote = (input: { from: string; to: string; amount: string }) =>
    firmQuote.mutate(input, {
      onSuccess: (q) => {
        setExpired(false);
        setConfirming({ ...q, receivedAt: Date.now() });
      },
      onError: (error) => {
        setConfirming(null);
        markRefusedField(form, error);
      },
    });

  const submit = () => {
    if (current) {
      requote({ from: current.from, to: current.to, amount: current.amount });
    }
  };

  const confirm = () => {
    if (!confirming || sending.current) {
      return;
    }
    if (expired || secondsLeft <= 0) {
      requote({ from: confirming.from, to: confirming.to, amount: confirming.amount });
      return;
    }
    sending.current = true;
    convert.mutate(
      { quote_id: confirming.id },
      {
        onSuccess: (done) => {
          // What the ledger credited, as the server answered it: the quote's own amount.
          feedback.success(
            t("assets.convert.done", {
              paid: `${format.exact(done.amount, 0, 18)} ${done.fromCurrency}`,
              received: `${format.exact(done.received, 0, 18)} ${done.toCurrency}`,
            }),
          );
          setConfirming(null);
          form.setFieldValue("amount", "");
          void invalidateAssets();
        },
        onError: (error) => {
          if (toApiError(error).errorCode === "QUOTE_EXPIRED") {
            // Nothing moved; the dialog stays open and offers a new quote.
            setExpired(true);
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
        busy={convert.isPending || firmQuote.isPending}
        onOk={confirm}
        onCancel={() => setConfirming(null)}
        okTestId="convert-confirm"
        okLabel={expired || secondsLeft <= 0 ? t("assets.convert.newQuote") : undefined}
      >
        {confirming && (
          <Flex vertical gap={12}>
            {expired || secondsLeft <= 0 ? (
              <Alert
                type="warning"
                showIcon
                title={t("assets.convert.expired")}
                data-testid="convert-expired"
              />
            ) : (
              <Typography.Text data-testid="convert-countdown">
                {t("assets.convert.firmFor", { seconds: secondsLeft })}
              </Typography.Text>
            )}
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
          </Flex>
        )}
      </ConfirmModal>
    </>
  );
}

type FirmQuote = ConversionFirmQuote & { receivedAt: number };

/** Whole seconds until a firm quote expires, counted from when it arrived; ticks each second. */
function useSecondsLeft(quote: FirmQuote | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!quote) {
      return;
    }
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [quote]);
  if (!quote) {
    return 0;
  }
  return Math.max(0, Math.ceil((quote.receivedAt + quote.seconds * 1000 - now) / 1000));
}
