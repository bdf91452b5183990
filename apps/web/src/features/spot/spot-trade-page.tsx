import type { TOrderSide } from "@northstar/shared/contracts/spot";
import { Button, Flex, Grid } from "antd";
import { type ReactNode, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useAppNavigate } from "../../lib/navigation.tsx";
import { useIsLoggedIn } from "../../lib/session.ts";
import { ErrorState } from "../common/page-states.tsx";
import { Panel } from "../common/panel.tsx";
import { StatusMessage } from "../common/status-message.tsx";
import { TradeKindSwitch } from "../common/trade-kind-switch.tsx";
import { InstrumentHeader, InstrumentLoader, useSymbolParam } from "../markets/instrument-page.tsx";
import { CandleChart } from "../markets/lazy-candle-chart.tsx";
import { InstrumentDetails } from "../markets/lazy-instrument-details.tsx";
import type { MarketRow } from "../markets/market-data.ts";
import { levelKey, OrderBook, RecentTrades } from "../markets/order-book.tsx";
import { OrderForm, OrderFormLoading } from "./lazy-order-form.tsx";
import { OrderSheet } from "./lazy-order-sheet.tsx";
import { TradeOrdersPanel } from "./lazy-trade-orders-panel.tsx";
import { MarketPicker } from "./market-picker.tsx";
import type { PickedPrice } from "./order-form.tsx";
import { isOpenOrder, useSpotLiveUpdates, useSpotOrders, useSpotTerms } from "./spot-data.ts";
import { PhoneTabs, PhoneTradeBar } from "./spot-phone.tsx";
import "./spot.css";

/**
 * /currency, /currencyTrade and /exchange (`?symbol=`, BTCUSDT by default): the instrument's header
 * with a market picker, the chart, the live order book (a level click sets the form's price), the
 * recent trades, the buy/sell form, and the user's orders in this market, kept live by the socket.
 */
export function SpotTradePage() {
  const symbol = useSymbolParam();
  useSpotLiveUpdates();
  return (
    <InstrumentLoader symbol={symbol} maxWidth={1440}>
      {/* One view per market: the form starts afresh on another symbol. */}
      {(instrument) => <TradeView key={instrument.symbol} instrument={instrument} />}
    </InstrumentLoader>
  );
}

function TradeView({ instrument }: { instrument: MarketRow }) {
  const { t } = useTranslation();
  const loggedIn = useIsLoggedIn();
  const terms = useSpotTerms(instrument.symbol);
  const [picked, setPicked] = useState<PickedPrice | null>(null);
  // Phones (below 768 px) get the chart first, the rest in tabs, and the form in a bottom sheet.
  const phone = Grid.useBreakpoint().md === false;
  const [sheet, setSheet] = useState<TOrderSide | null>(null);
  const hasSpot = terms.data !== null;
  // The same first page the orders panel shows, so this costs no request of its own.
  const open = useSpotOrders({ scope: "open", symbol: instrument.symbol, page: 1 });
  const openItems = loggedIn && hasSpot ? open.data?.items : undefined;
  const mine = useMemo(
    () =>
      new Set(
        (openItems ?? []).filter((o) => isOpenOrder(o) && o.price).map((o) => levelKey(o.price ?? "0")),
      ),
    [openItems],
  );

  let form: ReactNode;
  if (terms.isPending) {
    form = <OrderFormLoading />;
  } else if (terms.isError) {
    form = (
      <Panel size="small" title={t("spot.form.title")}>
        <ErrorState onRetry={() => void terms.refetch()} />
      </Panel>
    );
  } else if (terms.data === null) {
    form = <NoSpotMarket />;
  } else {
    form = <OrderForm instrument={instrument} terms={terms.data} picked={picked} />;
  }

  const book = (
    <OrderBook
      instrument={instrument}
      mine={mine}
      onPick={
        hasSpot
          ? (price) => {
              setPicked({ price, at: Date.now() });
              // On a phone the picked price opens the form, where it lands.
              if (phone) {
                setSheet((s) => s ?? "buy");
              }
            }
          : undefined
      }
    />
  );
  const chart = (
    <Panel size="small" title={t("market.chart.title")} bodyStyle={{ padding: 8 }}>
      <CandleChart instrument={instrument} />
    </Panel>
  );

  if (phone) {
    return (
      <Flex vertical gap={12} data-testid="spot-trade-page">
        <TradeKindSwitch current="spot" />
        <InstrumentHeader instrument={instrument} title={<MarketPicker instrument={instrument} />} />
        {chart}
        <PhoneTabs book={book} instrument={instrument} hasSpot={hasSpot} />
        <InstrumentDetails instrument={instrument} />
        {hasSpot || terms.isPending ? <PhoneTradeBar onOpen={setSheet} disabled={!hasSpot} /> : form}
        {sheet !== null && terms.data && (
          <OrderSheet
            instrument={instrument}
            terms={terms.data}
            picked={picked}
            side={sheet}
            onClose={() => setSheet(null)}
          />
        )}
      </Flex>
    );
  }

  return (
    <Flex vertical gap={12} data-testid="spot-trade-page">
      <TradeKindSwitch current="spot" />
      <InstrumentHeader instrument={instrument} title={<MarketPicker instrument={instrument} />} />
      <div className="ns-trade-grid">
        <div className="ns-area-chart">{chart}</div>
        <div className="ns-area-book">{book}</div>
        <div className="ns-area-trades">
          <RecentTrades instrument={instrument} />
        </div>
        <div className="ns-area-form">{form}</div>
        {hasSpot && (
          <div className="ns-area-orders">
            <TradeOrdersPanel symbol={instrument.symbol} />
          </div>
        )}
        <div className="ns-area-details">
          <InstrumentDetails instrument={instrument} />
        </div>
      </div>
    </Flex>
  );
}

/** Instruments without a spot book (forex, indices…) show their market data, and the way to one that has. */
function NoSpotMarket() {
  const { t } = useTranslation();
  const go = useAppNavigate();
  return (
    <Panel size="small" title={t("spot.form.title")} testId="spot-not-available">
      <StatusMessage
        kind="info"
        title={t("errors.SPOT_NOT_AVAILABLE")}
        hint={t("spot.trade.noSpotHint")}
        actions={
          <Button type="primary" onClick={() => go("/market?tab=exchange")}>
            {t("spot.trade.spotMarkets")}
          </Button>
        }
      />
    </Panel>
  );
}
