import type { TOptionOrderView } from "@northstar/shared/contracts/options";
import { Alert, Button, Card, Col, Flex, Grid, Result, Row, Select, theme } from "antd";
import { useCallback, useEffect } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { feedback } from "../../lib/feedback.ts";
import { AppLink } from "../../lib/navigation.tsx";
import { useIsLoggedIn } from "../../lib/session.ts";
import { useMoneyFormat } from "../assets/assets-format.ts";
import { EmptyState, ErrorState, LoadingState } from "../common/page-states.tsx";
import { PhoneActionSheet } from "../common/phone-action-sheet.tsx";
import { TradeKindSwitch } from "../common/trade-kind-switch.tsx";
import { CandleChart } from "../markets/candle-chart.tsx";
import { InstrumentHeader, InstrumentLoader } from "../markets/instrument-page.tsx";
import { OptionBuyForm } from "./option-buy-form.tsx";
import { OptionOrderCard } from "./option-order-card.tsx";
import { type OptionProduct, useOptionOrders, useOptionProducts, useOptionResults } from "./options-data.ts";
import { useNow } from "./use-now.ts";

/**
 * /options?symbol=: the options trade screen. The instrument's chart (its live price line), the
 * period, amount and up/down buttons, the open options with their countdowns, and the result when
 * one settles while the user watches (the socket's event).
 */
export function OptionsTradePage() {
  const { t } = useTranslation();
  const products = useOptionProducts();
  const [params, setParams] = useSearchParams();
  const format = useMoneyFormat();
  const onSettled = useCallback(
    (order: TOptionOrderView) => {
      const profit = format.signed(order.profit ?? "0", 0, 8).replace(/^\+/, "");
      if (order.status === "won") {
        feedback.success(t("options.resultWon", { profit }));
      } else if (order.status === "lost") {
        feedback.warning(t("options.resultLost", { profit }));
      } else if (order.status === "void") {
        feedback.info(t("options.resultVoid", { amount: format.exact(order.payout ?? "0", 0, 8) }));
      } else {
        feedback.info(t("options.resultTied", { amount: format.exact(order.payout ?? "0", 0, 8) }));
      }
    },
    [t, format],
  );
  const { watchOpen } = useOptionResults(onSettled);

  if (products.isPending) {
    return <LoadingState rows={10} />;
  }
  if (products.isError) {
    return <ErrorState onRetry={() => void products.refetch()} />;
  }
  const list = products.data;
  if (list.length === 0) {
    return <Result status="info" title={t("options.title")} subTitle={t("common.empty")} />;
  }
  const wanted = (params.get("symbol") ?? "").toUpperCase();
  const product = list.find((p) => p.symbol === wanted) ?? (list[0] as OptionProduct);
  const picker = (
    <Select
      value={product.symbol}
      onChange={(symbol) => setParams({ symbol }, { replace: true })}
      options={list.map((p) => ({ value: p.symbol, label: p.symbol }))}
      style={{ minWidth: 140 }}
      data-testid="option-symbol"
      aria-label={t("options.instrument")}
    />
  );
  return (
    <InstrumentLoader symbol={product.symbol} maxWidth={1280}>
      {(instrument) => (
        <TradeView
          key={product.symbol}
          product={product}
          header={<InstrumentHeader instrument={instrument} title={picker} />}
          watchOpen={watchOpen}
        >
          <CandleChart instrument={instrument} />
        </TradeView>
      )}
    </InstrumentLoader>
  );
}

function TradeView({
  product,
  header,
  watchOpen,
  children,
}: {
  product: OptionProduct;
  watchOpen: (open: TOptionOrderView[] | undefined) => void;
  header: React.ReactNode;
  children: React.ReactNode;
}) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  // Phones: the form opens in a bottom sheet from Up / Down stuck above the tab bar.
  const phone = Grid.useBreakpoint().md === false;
  return (
    <Flex vertical gap={token.marginSM} data-testid="options-trade-page">
      <TradeKindSwitch current="options" />
      {header}
      <Row gutter={[token.marginSM, token.marginSM]}>
        <Col xs={24} lg={15}>
          <Card size="small" title={t("options.livePrice")} styles={{ body: { padding: 8 } }}>
            {children}
          </Card>
        </Col>
        {!phone && (
          <Col xs={24} lg={9}>
            <OptionBuyForm product={product} />
          </Col>
        )}
      </Row>
      <OpenOptions watchOpen={watchOpen} />
      <Alert type="info" showIcon title={t("options.honest")} data-testid="options-honest" />
      {phone && (
        <PhoneActionSheet
          testId="option-phone"
          title={product.symbol}
          actions={[
            { key: "up", label: t("options.buyUp"), color: "green", testId: "option-phone-up" },
            { key: "down", label: t("options.buyDown"), color: "danger", testId: "option-phone-down" },
          ]}
        >
          {() => <OptionBuyForm product={product} />}
        </PhoneActionSheet>
      )}
    </Flex>
  );
}

function OpenOptions({ watchOpen }: { watchOpen: (open: TOptionOrderView[] | undefined) => void }) {
  const { t } = useTranslation();
  const loggedIn = useIsLoggedIn();
  const open = useOptionOrders("open");
  const now = useNow(loggedIn);
  useEffect(() => watchOpen(open.data?.items), [open.data, watchOpen]);
  if (!loggedIn) {
    return null;
  }
  let body: React.ReactNode;
  if (open.isPending) {
    body = <LoadingState rows={2} />;
  } else if (open.isError) {
    body = <ErrorState onRetry={() => void open.refetch()} />;
  } else if (open.data.items.length === 0) {
    body = <EmptyState>{t("options.emptyOpen")}</EmptyState>;
  } else {
    body = (
      <Flex vertical gap={8}>
        {open.data.items.map((order) => (
          <OptionOrderCard key={order.id} order={order} now={now} />
        ))}
      </Flex>
    );
  }
  return (
    <Card
      size="small"
      title={t("options.openOrders")}
      data-testid="option-open-orders"
      extra={
        <AppLink to="/optionsRecord">
          <Button type="link" size="small" data-testid="option-record-link">
            {t("options.record")}
          </Button>
        </AppLink>
      }
    >
      {body}
    </Card>
  );
}
