import type { TOrderSide, TOrderType } from "@northstar/shared/contracts/spot";
import { money } from "@northstar/shared/money";
import { Alert, Button, Card, Flex, Form, Input, Segmented, Slider, Tabs, Typography, theme } from "antd";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { feedback } from "../../lib/feedback.ts";
import { useDepth, useTickerValue } from "../../lib/market-socket.ts";
import { useIsLoggedIn } from "../../lib/session.ts";
import { digitsOnly, markRefusedField } from "../account/account-helpers.ts";
import { amountInput, NUMERIC_STYLE } from "../assets/assets-format.ts";
import type { MarketRow } from "../markets/market-data.ts";
import { OrderConfirmDialog, type PendingOrder } from "./order-confirm-dialog.tsx";
import { EstimateRows } from "./order-estimates.tsx";
import {
  byTotal,
  type OrderField,
  type OrderFormValues,
  orderProblems,
  orderRequest,
} from "./order-rules.ts";
import { SidePicker } from "./order-side-picker.tsx";
import { VisitorPrompt } from "./order-visitor-prompt.tsx";
import { type SpotTerms, usePlaceOrder, useSpotBalances } from "./spot-data.ts";
import {
  amountForShare,
  type BuyBy,
  estimate,
  floorToStep,
  type MarketQuote,
  shareOf,
  stepDecimals,
} from "./spot-math.ts";
import { useSpotFormat } from "./spot-ui.tsx";

const SHARES = { 0: "0%", 25: "25%", 50: "50%", 75: "75%", 100: "100%" };

/** A price handed over by the order book; `at` tells two clicks on the same level apart. */
export interface PickedPrice {
  price: string;
  at: number;
}

/**
 * The buy/sell form: Limit or Market, price and quantity (or, for a market buy, the total to spend),
 * a slider by share of the available balance, the estimated total and fee, then a confirmation.
 * It checks what the server checks (the shared schema, the tick and lot grid, the balance) as you type.
 */
export function OrderForm({
  instrument,
  terms,
  picked,
  initialSide = "buy",
}: {
  instrument: MarketRow;
  terms: SpotTerms;
  picked: PickedPrice | null;
  /** The side chosen before the form opened (the phone's Buy or Sell button). */
  initialSide?: TOrderSide;
}) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const loggedIn = useIsLoggedIn();
  const format = useSpotFormat();
  const [form] = Form.useForm<OrderFormValues>();
  const [side, setSide] = useState<TOrderSide>(initialSide);
  const [type, setType] = useState<TOrderType>("limit");
  const [by, setBy] = useState<BuyBy>("quantity");
  const [pending, setPending] = useState<PendingOrder | null>(null);
  const balances = useSpotBalances(instrument.symbol);
  const place = usePlaceOrder();
  const { depth } = useDepth(instrument.symbol);
  const last = useTickerValue(instrument.symbol, instrument.ticker, (x) => x.p);
  const values = Form.useWatch((all: OrderFormValues) => all, form);

  const quote: MarketQuote = {
    bestBid: depth?.bids[0]?.[0],
    bestAsk: depth?.asks[0]?.[0],
    last,
    makerFee: terms.makerFee,
    takerFee: terms.takerFee,
    marketProtection: terms.marketProtection,
    tickSize: terms.tickSize,
    lotSize: terms.lotSize,
  };
  const choice = { symbol: instrument.symbol, side, type, by };
  const draft = {
    side,
    type,
    by,
    price: values?.price,
    quantity: values?.quantity,
    quoteAmount: values?.quote_amount,
  };
  const est = estimate(draft, quote);
  const payCurrency = side === "buy" ? terms.quote : terms.base;
  const wallet = balances.data ? (side === "buy" ? balances.data.quote : balances.data.base) : undefined;
  const available = wallet?.available;
  const priceDecimals = stepDecimals(terms.tickSize);
  const qtyDecimals = stepDecimals(terms.lotSize);
  // A market buy's budget counts in units of tick × lot; finer digits would not be spent.
  const quoteDecimals = Math.min(8, stepDecimals(money(terms.tickSize).times(terms.lotSize).toFixed()));
  const total = byTotal(choice);
  const disabled = !terms.open || place.isPending;

  const problems = (all: OrderFormValues) =>
    orderProblems(t, choice, all, {
      terms,
      available,
      estimate: estimate({ ...draft, ...pickDraft(all) }, quote),
    });
  const rule = (field: OrderField) => ({
    validator: async () => {
      const message = problems(form.getFieldsValue(true))[field];
      if (message) {
        throw new Error(message);
      }
    },
  });

  /** A decimal field of the order: typed to its decimals, checked as the server checks it, with its unit. */
  const amountField = (
    field: "price" | "quote_amount" | "quantity",
    decimals: number,
    unit: string,
    testId: string,
    extra?: string,
  ) => (
    <Form.Item
      name={field}
      label={t(`spot.fields.${field}`)}
      normalize={amountInput(decimals)}
      rules={[rule(field)]}
      extra={extra}
    >
      <Input
        inputMode="decimal"
        autoComplete="off"
        suffix={unit}
        style={NUMERIC_STYLE}
        data-testid={testId}
      />
    </Form.Item>
  );

  // The price starts at the last price, on the tick grid, once one is known.
  const seeded = useRef(false);
  useEffect(() => {
    if (!seeded.current && last && !form.getFieldValue("price")) {
      seeded.current = true;
      form.setFieldValue("price", money(floorToStep(money(last), terms.tickSize)).toFixed(priceDecimals));
    }
  }, [last, form, terms.tickSize, priceDecimals]);

  // A level clicked in the book becomes the limit price.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once per pick, not when the form re-renders
  useEffect(() => {
    if (!picked) {
      return;
    }
    setType("limit");
    form.setFieldValue("price", money(picked.price).toFixed(priceDecimals));
    void revalidate(["price", "quantity"]);
  }, [picked]);

  /** Re-checks the fields that have something in them (an empty field stays quiet until submitted). */
  const revalidate = (fields: OrderField[]) => {
    const filled = fields.filter((f) => Boolean(form.getFieldValue(f)));
    return filled.length > 0 ? form.validateFields(filled).catch(() => undefined) : Promise.resolve();
  };

  const switchTo = (next: { side?: TOrderSide; type?: TOrderType; by?: BuyBy }) => {
    if (next.side) {
      setSide(next.side);
    }
    if (next.type) {
      setType(next.type);
    }
    if (next.by) {
      setBy(next.by);
    }
    // The amount meant something for the other side or kind; the price is kept.
    form.setFieldsValue({ quantity: undefined, quote_amount: undefined });
    form.setFields([
      { name: "quantity", errors: [] },
      { name: "quote_amount", errors: [] },
    ]);
  };

  const onShare = (share: number) => {
    if (available === undefined) {
      return;
    }
    const next = amountForShare(draft, share, available, quote, {
      lotSize: terms.lotSize,
      quoteDecimals,
    });
    if (next) {
      form.setFieldValue(next.field, next.value);
      void revalidate([next.field]);
    }
  };

  const submit = (all: OrderFormValues) => {
    const request = orderRequest(choice, all, terms.tradePasswordRequired);
    setPending({ request, estimate: estimate({ ...draft, ...pickDraft(all) }, quote), by });
  };

  const confirm = () => {
    if (!pending) {
      return;
    }
    place.mutate(pending.request, {
      onSuccess: (result) => {
        setPending(null);
        // The createOrder event: its message is shown plainly (SPEC section 8).
        feedback.success(result.message);
        form.setFieldsValue({ quantity: undefined, quote_amount: undefined, trade_password: undefined });
      },
      onError: (error) => {
        // The warning itself comes from the client rules; the field it names is marked here.
        setPending(null);
        markRefusedField(form, error);
      },
    });
  };

  const pay = est.pay;
  const share = available !== undefined ? shareOf(pay, available) : 0;
  const buyColor = token.colorSuccess;
  const sellColor = token.colorError;

  return (
    <Card
      size="small"
      title={t("spot.form.title")}
      data-testid="order-form"
      styles={{ body: { paddingTop: 8 } }}
    >
      <SidePicker side={side} onChange={(s) => switchTo({ side: s })} />
      <Tabs
        size="small"
        activeKey={type}
        onChange={(key) => switchTo({ type: key as TOrderType })}
        items={(["limit", "market"] as const).map((k) => ({
          key: k,
          label: <span data-testid={`order-type-${k}`}>{t(`spot.form.${k}`)}</span>,
        }))}
        style={{ marginBottom: 4 }}
      />
      {!terms.open && (
        <Alert
          type="warning"
          showIcon
          title={t("spot.trade.closed")}
          style={{ marginBottom: 12 }}
          data-testid="order-market-closed"
        />
      )}
      <Form
        form={form}
        layout="vertical"
        requiredMark={false}
        disabled={disabled}
        onFinish={submit}
        onValuesChange={(changed: OrderFormValues) => {
          if ("price" in changed) {
            void revalidate(["quantity"]);
          }
        }}
        className="ns-order-form"
      >
        <Flex justify="space-between" gap={8} wrap style={{ marginBottom: 8 }}>
          <Typography.Text type="secondary">{t("spot.form.available")}</Typography.Text>
          <Typography.Text style={NUMERIC_STYLE} data-testid="order-available">
            {loggedIn ? (available !== undefined ? format.amount(available) : "—") : "—"} {payCurrency}
          </Typography.Text>
        </Flex>

        {type === "limit" ? (
          amountField("price", priceDecimals, terms.quote, "order-price")
        ) : (
          <Form.Item label={t("spot.fields.price")}>
            <Input disabled value={t("spot.form.marketPrice")} data-testid="order-price-market" />
          </Form.Item>
        )}

        {type === "market" && side === "buy" && (
          <Segmented
            block
            size="small"
            value={by}
            onChange={(v) => switchTo({ by: v as BuyBy })}
            style={{ marginBottom: 12 }}
            options={[
              {
                value: "quantity",
                label: <span data-testid="order-by-quantity">{t("spot.form.byQuantity")}</span>,
              },
              { value: "total", label: <span data-testid="order-by-total">{t("spot.form.byTotal")}</span> },
            ]}
          />
        )}

        {total
          ? amountField("quote_amount", quoteDecimals, terms.quote, "order-total-input")
          : amountField(
              "quantity",
              qtyDecimals,
              terms.base,
              "order-quantity",
              t("spot.form.grid", {
                lot: money(terms.lotSize).toFixed(),
                min: money(terms.minQty).toFixed(),
                unit: terms.base,
              }),
            )}

        <div style={{ paddingInline: 12, marginBottom: 12 }}>
          <Slider
            marks={SHARES}
            step={1}
            value={share}
            onChange={onShare}
            disabled={disabled || !loggedIn || available === undefined}
            tooltip={{ formatter: (v) => `${v}%` }}
            aria-label={t("spot.form.share")}
            data-testid="order-share"
            styles={{
              track: { background: side === "buy" ? buyColor : sellColor },
            }}
          />
        </div>

        <EstimateRows terms={terms} side={side} type={type} byTotalAmount={total} est={est} />

        {terms.tradePasswordRequired && (
          <Form.Item
            name="trade_password"
            label={t("spot.fields.trade_password")}
            normalize={digitsOnly(6)}
            rules={[rule("trade_password")]}
            style={{ marginTop: 12 }}
          >
            <Input.Password
              inputMode="numeric"
              autoComplete="off"
              maxLength={6}
              placeholder={t("spot.form.tradePasswordHint")}
              data-testid="order-trade-password"
            />
          </Form.Item>
        )}

        {loggedIn ? (
          <Button
            htmlType="submit"
            block
            size="large"
            color={side === "buy" ? "green" : "danger"}
            variant="solid"
            loading={place.isPending}
            style={{ marginTop: 12, fontWeight: 600 }}
            data-testid="order-submit"
          >
            {t(side === "buy" ? "spot.form.buyPair" : "spot.form.sellPair", { base: terms.base })}
          </Button>
        ) : (
          <VisitorPrompt />
        )}
      </Form>
      <OrderConfirmDialog
        pending={pending}
        terms={terms}
        busy={place.isPending}
        onOk={confirm}
        onCancel={() => setPending(null)}
      />
    </Card>
  );
}

/** The amounts of the form values that the estimate reads. */
const pickDraft = (all: OrderFormValues) => ({
  price: all.price,
  quantity: all.quantity,
  quoteAmount: all.quote_amount,
});
