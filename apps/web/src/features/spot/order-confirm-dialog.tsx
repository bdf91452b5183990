import type { ZPlaceOrderRequestSchema } from "@northstar/shared/contracts/spot";
import { Typography } from "antd";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import { ConfirmModal, SummaryRows } from "../common/confirm-summary-dialog.tsx";
import { byTotal } from "./order-rules.ts";
import type { SpotTerms } from "./spot-data.ts";
import { type BuyBy, type Estimate, percent } from "./spot-math.ts";
import { SideText, useSpotFormat } from "./spot-ui.tsx";

/** An order the user submitted and has yet to confirm, with the estimates shown when it was entered. */
export interface PendingOrder {
  request: z.input<typeof ZPlaceOrderRequestSchema>;
  estimate: Estimate;
  by: BuyBy;
}

/** The confirmation before an order is sent: side, type, price, quantity, total and fee once more. */
export function OrderConfirmDialog({
  pending,
  terms,
  busy,
  onOk,
  onCancel,
}: {
  pending: PendingOrder | null;
  terms: SpotTerms;
  busy: boolean;
  onOk: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const format = useSpotFormat();
  const request = pending?.request;
  const est = pending?.estimate;
  const market = request?.type === "market";
  const approx = market ? "≈ " : "";
  const feeCurrency = request?.side === "buy" ? terms.base : terms.quote;
  const total =
    request && pending ? byTotal({ side: request.side, type: request.type, by: pending.by }) : false;

  return (
    <ConfirmModal
      open={pending !== null}
      title={
        request
          ? t(request.side === "buy" ? "spot.confirm.titleBuy" : "spot.confirm.titleSell", {
              pair: `${terms.base}/${terms.quote}`,
            })
          : ""
      }
      busy={busy}
      onOk={onOk}
      onCancel={onCancel}
      okTestId="order-confirm"
    >
      {request && est && (
        <>
          <SummaryRows
            rows={[
              { key: "side", label: t("spot.orders.side"), value: <SideText side={request.side} /> },
              { key: "type", label: t("spot.orders.type"), value: t(`spot.form.${request.type}`) },
              {
                key: "price",
                label: t("spot.fields.price"),
                value: market
                  ? t("spot.form.marketPrice")
                  : `${format.amount(request.price ?? "")} ${terms.quote}`,
              },
              {
                key: "quantity",
                label: t("spot.fields.quantity"),
                value: total
                  ? est.quantity
                    ? `≈ ${format.amount(est.quantity.toFixed())} ${terms.base}`
                    : "—"
                  : `${format.amount(request.quantity ?? "")} ${terms.base}`,
              },
              {
                key: "total",
                label: t("spot.orders.total"),
                value: total
                  ? `${format.amount(request.quote_amount ?? "")} ${terms.quote}`
                  : est.total
                    ? `${approx}${format.amount(est.total.toFixed(), 2)} ${terms.quote}`
                    : "—",
              },
              {
                key: "fee",
                label: t("spot.confirm.fee", { rate: percent(est.feeRate) }),
                value: est.fee ? `≈ ${format.amount(est.fee.toFixed())} ${feeCurrency}` : "—",
              },
            ]}
          />
          <Typography.Paragraph type="secondary" style={{ margin: "12px 0 0", fontSize: 12 }}>
            {t("spot.form.feeNote", { currency: feeCurrency })}
            {market && request.side === "buy" && !total && est.maxTotal && (
              <>
                {" "}
                {t("spot.form.protection", {
                  percent: percent(terms.marketProtection),
                  max: format.amount(est.maxTotal.toFixed(), 2),
                  quote: terms.quote,
                })}
              </>
            )}
          </Typography.Paragraph>
        </>
      )}
    </ConfirmModal>
  );
}
