import { Alert, Card, Col, Flex, Grid, Result, Row, Segmented, Select, theme } from "antd";
import { useCallback } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { feedback } from "../../lib/feedback.ts";
import { ErrorState, LoadingState } from "../common/page-states.tsx";
import { PhoneActionSheet } from "../common/phone-action-sheet.tsx";
import { TradeKindSwitch } from "../common/trade-kind-switch.tsx";
import { CandleChart } from "../markets/candle-chart.tsx";
import { InstrumentHeader, InstrumentLoader } from "../markets/instrument-page.tsx";
import { ContractOrderForm } from "./contract-order-form.tsx";
import { ContractPositionsPanel } from "./contract-positions-panel.tsx";
import { type ContractProduct, useContractEvents, useContractProducts } from "./contracts-data.ts";
import { DeliveryExpiryNote } from "./delivery-expiry-note.tsx";

/**
 * /preciousMetal?symbol=: the contract trade screen. The instrument switcher by asset class, the
 * chart, the long/short form with its pre-trade figures, and the user's positions, pending orders
 * and history; fills and closes by the risk engine are announced as they happen.
 */
export function ContractsTradePage() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const products = useContractProducts();
  // Phones: the form opens in a bottom sheet from Open long / Open short stuck above the tab bar.
  const phone = Grid.useBreakpoint().md === false;
  const [params, setParams] = useSearchParams();
  const announce = useCallback(
    (kind: string, position: { symbol: string }) => {
      if (kind !== "user") {
        feedback.info(t(`contracts.triggered_${kind}`, { symbol: position.symbol }));
      }
    },
    [t],
  );
  useContractEvents(announce);

  if (products.isPending) {
    return <LoadingState rows={10} />;
  }
  if (products.isError) {
    return <ErrorState onRetry={() => void products.refetch()} />;
  }
  const list = products.data;
  if (list.length === 0) {
    return <Result status="info" title={t("contracts.title")} subTitle={t("common.empty")} />;
  }
  const wanted = (params.get("symbol") ?? "").toUpperCase();
  const product = list.find((p) => p.symbol === wanted) ?? (list[0] as ContractProduct);
  const categories = [...new Set(list.map((p) => p.category))];
  const pick = (symbol: string) => setParams({ symbol }, { replace: true });
  const switcher = (
    <Flex vertical gap={6} style={{ minWidth: 0, maxWidth: "calc(100vw - 140px)" }}>
      {/* On a phone the asset classes scroll sideways rather than leave the card. */}
      <div style={{ overflowX: "auto", maxWidth: "100%" }}>
        <Segmented
          size="small"
          value={product.category}
          onChange={(c) => pick(list.find((p) => p.category === c)?.symbol ?? product.symbol)}
          options={categories.map((c) => ({ value: c, label: t(`market.categories.${c}`) }))}
          data-testid="contract-category"
        />
      </div>
      <Select
        value={product.symbol}
        onChange={pick}
        showSearch
        options={list
          .filter((p) => p.category === product.category)
          .map((p) => ({ value: p.symbol, label: p.symbol }))}
        style={{ width: "100%", maxWidth: 240 }}
        data-testid="contract-symbol"
        aria-label={t("contracts.instrument")}
      />
    </Flex>
  );
  return (
    <InstrumentLoader symbol={product.symbol} maxWidth={1280}>
      {(instrument) => (
        <Flex vertical gap={token.marginSM} data-testid="contracts-trade-page">
          <TradeKindSwitch current="contracts" />
          <InstrumentHeader instrument={instrument} title={switcher} />
          <DeliveryExpiryNote product={product} />
          <Row gutter={[token.marginSM, token.marginSM]}>
            <Col xs={24} lg={15}>
              <Card size="small" title={t("contracts.livePrice")} styles={{ body: { padding: 8 } }}>
                <CandleChart instrument={instrument} />
              </Card>
            </Col>
            {!phone && (
              <Col xs={24} lg={9}>
                <ContractOrderForm key={product.symbol} product={product} />
              </Col>
            )}
          </Row>
          <ContractPositionsPanel />
          <Alert type="info" showIcon title={t("contracts.honest")} data-testid="contracts-honest" />
          {phone && (
            <PhoneActionSheet
              testId="contract-phone"
              title={product.symbol}
              actions={[
                {
                  key: "long",
                  label: t("contracts.openLong"),
                  color: "green",
                  testId: "contract-phone-long",
                },
                {
                  key: "short",
                  label: t("contracts.openShort"),
                  color: "danger",
                  testId: "contract-phone-short",
                },
              ]}
            >
              {() => <ContractOrderForm key={product.symbol} product={product} />}
            </PhoneActionSheet>
          )}
        </Flex>
      )}
    </InstrumentLoader>
  );
}
