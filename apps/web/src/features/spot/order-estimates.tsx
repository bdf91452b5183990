import type { TOrderSide, TOrderType } from "@northstar/shared/contracts/spot";
import { Flex, Typography, theme } from "antd";
import { useTranslation } from "react-i18next";
import { NUMERIC_STYLE } from "../assets/assets-format.ts";
import type { SpotTerms } from "./spot-data.ts";
import { type estimate, percent } from "./spot-math.ts";
import { useSpotFormat } from "./spot-ui.tsx";

/** Estimated total and fee, the fee rates, and for a market buy by quantity the price protection. */
export function EstimateRows({
  terms,
  side,
  type,
  byTotalAmount,
  est,
}: {
  terms: SpotTerms;
  side: TOrderSide;
  type: TOrderType;
  byTotalAmount: boolean;
  est: ReturnType<typeof estimate>;
}) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const format = useSpotFormat();
  const approx = type === "market" ? "≈ " : "";
  const feeCurrency = side === "buy" ? terms.base : terms.quote;
  const rows = [
    byTotalAmount
      ? {
          key: "quantity",
          label: t("spot.form.estQuantity"),
          value: est.quantity ? `≈ ${format.amount(est.quantity.toFixed())} ${terms.base}` : "—",
        }
      : {
          key: "total",
          label: t("spot.form.estTotal"),
          value: est.total ? `${approx}${format.amount(est.total.toFixed(), 2)} ${terms.quote}` : "—",
        },
    {
      key: "fee-rate",
      label: t("spot.form.feeRate"),
      value:
        type === "market"
          ? t("spot.form.takerRate", { rate: percent(terms.takerFee) })
          : t("spot.form.feeRates", { maker: percent(terms.makerFee), taker: percent(terms.takerFee) }),
    },
    {
      key: "fee",
      label: t("spot.form.estFee"),
      value: est.fee ? `≈ ${format.amount(est.fee.toFixed())} ${feeCurrency}` : "—",
    },
  ];
  return (
    <Flex vertical gap={4} style={{ fontSize: token.fontSizeSM }} data-testid="order-estimates">
      {rows.map((r) => (
        <Flex key={r.key} justify="space-between" gap={12} data-testid={`order-est-${r.key}`}>
          <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
            {r.label}
          </Typography.Text>
          <Typography.Text style={{ ...NUMERIC_STYLE, fontSize: token.fontSizeSM, textAlign: "end" }}>
            {r.value}
          </Typography.Text>
        </Flex>
      ))}
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t("spot.form.feeNote", { currency: feeCurrency })}
      </Typography.Text>
      {type === "market" && side === "buy" && !byTotalAmount && (
        <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="order-protection">
          {t("spot.form.protection", {
            percent: percent(terms.marketProtection),
            max: est.maxTotal ? format.amount(est.maxTotal.toFixed(), 2) : "—",
            quote: terms.quote,
          })}
        </Typography.Text>
      )}
    </Flex>
  );
}
