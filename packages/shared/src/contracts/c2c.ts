import { z } from "zod";
import { err } from "./common.ts";
import { zAmount, zCurrency } from "./funding.ts";

const zId = z.coerce.number(err("FIELD_INVALID")).int(err("FIELD_INVALID")).positive(err("FIELD_INVALID"));
const zText = (max: number) => z.string(err("FIELD_INVALID")).trim().min(1, err("FIELD_REQUIRED")).max(max);
const zOptionalText = (max: number) =>
  z
    .string(err("FIELD_INVALID"))
    .trim()
    .max(max, err("FIELD_INVALID"))
    .optional()
    .transform((v) => v ?? "");

/** An operator's merchant: who the user wires to, what they sell, at what price and within what range. */
export const ZC2cMerchantInputSchema = z.object({
  name: zText(80),
  coin: zCurrency,
  fiat: zCurrency,
  price: zAmount,
  min_fiat: zAmount,
  max_fiat: zAmount,
  payee_name: zText(120),
  bank_name: zText(120),
  bank_account: z
    .string(err("FIELD_INVALID"))
    .trim()
    .regex(/^[A-Za-z0-9 -]{4,40}$/, err("FIELD_INVALID")),
  bank_branch: zOptionalText(200),
  note: zOptionalText(500),
});
export type TC2cMerchantInput = z.output<typeof ZC2cMerchantInputSchema>;
export const ZC2cMerchantUpdateSchema = z.object({ id: zId, data: ZC2cMerchantInputSchema });
export const ZC2cStockMoveSchema = z.object({ merchant_id: zId, amount: zAmount });
export type TC2cStockMove = z.output<typeof ZC2cStockMoveSchema>;
export const ZC2cIdSchema = z.object({ id: zId });

/** A quote or an order: a merchant chosen (quick purchase) or the best price for the coin. */
export const ZC2cQuoteRequestSchema = z.object({
  merchant_id: zId.optional(),
  coin: zCurrency,
  mode: z.enum(["fiat", "coin"], err("FIELD_INVALID")),
  amount: zAmount,
});
export type TC2cQuoteRequest = z.output<typeof ZC2cQuoteRequestSchema>;
/**
 * Creating an order may carry the price the user confirmed: when the merchant's price has changed
 * since the quote, the order is refused (C2C_PRICE_CHANGED) rather than placed at a price not shown.
 */
export const ZC2cCreateOrderRequestSchema = ZC2cQuoteRequestSchema.extend({ price: zAmount.optional() });
export type TC2cCreateOrderRequest = z.output<typeof ZC2cCreateOrderRequestSchema>;

export const ZC2cOrderRequestSchema = z.object({ order_id: zId });
export const ZC2cOrderListRequestSchema = z.object({
  scope: z.enum(["open", "history", "all"]).default("all"),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(20),
});
export type TC2cOrderListRequest = z.output<typeof ZC2cOrderListRequestSchema>;

export const ZC2cSubmitProofRequestSchema = z.object({
  order_id: zId,
  proof_upload_id: z.uuid(err("PROOF_REQUIRED")),
  note: zOptionalText(300),
});
export type TC2cSubmitProofRequest = z.output<typeof ZC2cSubmitProofRequestSchema>;

export const ZC2cRejectRequestSchema = z.object({ order_id: zId, reason: zText(300) });

/**
 * The user's payment settings (SPEC section 3): name, bank_name, bank_number, alipay_account,
 * weixin_nickname, weixin_account. Each channel is optional; a bank needs both its name and number.
 */
export const ZC2cPaymentSettingsSchema = z
  .object({
    name: zText(80),
    bank_name: zOptionalText(120),
    bank_number: z
      .string(err("FIELD_INVALID"))
      .trim()
      .regex(/^([A-Za-z0-9 -]{4,40})?$/, err("FIELD_INVALID"))
      .optional()
      .transform((v) => v ?? ""),
    alipay_account: zOptionalText(100),
    weixin_nickname: zOptionalText(64),
    weixin_account: zOptionalText(64),
  })
  .superRefine((v, ctx) => {
    if ((v.bank_name === "") !== (v.bank_number === "")) {
      const path = v.bank_name === "" ? "bank_name" : "bank_number";
      ctx.addIssue({ code: "custom", message: "FIELD_REQUIRED", path: [path] });
    }
    if (v.weixin_nickname !== "" && v.weixin_account === "") {
      ctx.addIssue({ code: "custom", message: "FIELD_REQUIRED", path: ["weixin_account"] });
    }
  });
export type TC2cPaymentSettings = z.output<typeof ZC2cPaymentSettingsSchema>;

/** The rules page, per language (operators write it; sanitised on the way in). */
export const ZC2cRulesSchema = z.object({
  texts: z.record(z.string().regex(/^[a-z]{2,3}$/), z.object({ body: z.string().max(20_000) })),
});
