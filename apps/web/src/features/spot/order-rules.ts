import { type TOrderSide, type TOrderType, ZPlaceOrderRequestSchema } from "@northstar/shared/contracts/spot";
import { isErrorCode } from "@northstar/shared/errors";
import { money } from "@northstar/shared/money";
import type { TFunction } from "i18next";
import type { z } from "zod";
import type { SpotTerms } from "./spot-data.ts";
import { type BuyBy, type Estimate, onGrid, positive } from "./spot-math.ts";

/** The order form's fields, named as the request names them (so a refusal's `field` finds its input). */
export interface OrderFormValues {
  price?: string;
  quantity?: string;
  quote_amount?: string;
  trade_password?: string;
}
export type OrderField = keyof OrderFormValues;

export interface OrderChoice {
  symbol: string;
  side: TOrderSide;
  type: TOrderType;
  by: BuyBy;
}

const blank = (value: string | undefined) => {
  const v = value?.trim();
  return v ? v : undefined;
};

/** Whether this order is entered as a quote amount (a market buy by total) rather than a quantity. */
export const byTotal = (choice: Pick<OrderChoice, "side" | "type" | "by">) =>
  choice.type === "market" && choice.side === "buy" && choice.by === "total";

/** The request the form sends: only the fields this kind of order uses. */
export function orderRequest(
  choice: OrderChoice,
  values: OrderFormValues,
  tradePasswordRequired: boolean,
): z.input<typeof ZPlaceOrderRequestSchema> {
  const total = byTotal(choice);
  return {
    symbol: choice.symbol,
    side: choice.side,
    type: choice.type,
    time_in_force: "gtc",
    price: choice.type === "limit" ? blank(values.price) : undefined,
    quantity: total ? undefined : blank(values.quantity),
    quote_amount: total ? blank(values.quote_amount) : undefined,
    trade_password: tradePasswordRequired ? (values.trade_password ?? "") : undefined,
  };
}

/**
 * Every refusal the form can tell before sending, by field, translated: the shared schema's (the
 * server's own rules), then the instrument's tick and lot grid and minimum, then the balance.
 */
export function orderProblems(
  t: TFunction,
  choice: OrderChoice,
  values: OrderFormValues,
  context: {
    terms: SpotTerms;
    /** in the paying currency; undefined while loading or for visitors */
    available: string | undefined;
    estimate: Estimate;
  },
): Partial<Record<OrderField, string>> {
  const { terms, available, estimate } = context;
  const label = (field: OrderField) => t(`spot.fields.${field}`);
  const out: Partial<Record<OrderField, string>> = {};
  const request = orderRequest(choice, values, terms.tradePasswordRequired);

  const parsed = ZPlaceOrderRequestSchema.safeParse(request);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as OrderField;
      if (out[field] === undefined) {
        out[field] = isErrorCode(issue.message)
          ? t(`errors.${issue.message}`, { field: label(field) })
          : t("errors.FIELD_INVALID", { field: label(field) });
      }
    }
  }
  if (terms.tradePasswordRequired && !request.trade_password) {
    out.trade_password = t("errors.FIELD_REQUIRED", { field: label("trade_password") });
  }

  const price = positive(request.price);
  if (price && out.price === undefined && !onGrid(price, terms.tickSize)) {
    out.price = t("errors.PRICE_OFF_TICK", { tick: money(terms.tickSize).toFixed() });
  }
  const quantity = positive(request.quantity);
  if (quantity && out.quantity === undefined) {
    if (!onGrid(quantity, terms.lotSize)) {
      out.quantity = t("errors.QUANTITY_OFF_LOT", { lot: money(terms.lotSize).toFixed() });
    } else if (quantity.lt(terms.minQty)) {
      out.quantity = t("spot.form.belowMinimum", {
        message: t("errors.QUANTITY_BELOW_MINIMUM"),
        min: money(terms.minQty).toFixed(),
        unit: terms.base,
      });
    }
  }

  // The balance: only once the amount itself is valid, so the first problem shown is the first to fix.
  const amountField: OrderField = byTotal(choice) ? "quote_amount" : "quantity";
  if (
    available !== undefined &&
    out[amountField] === undefined &&
    out.price === undefined &&
    estimate.pay?.gt(available)
  ) {
    out[amountField] = t("errors.INSUFFICIENT_BALANCE");
  }
  return out;
}
