import { z } from "zod";
import { DECIMAL_STRING, fitsNumeric } from "../money.ts";
import { err, zTradePassword } from "./common.ts";

export const WALLET_TYPES = ["exchange", "contract", "option", "futures"] as const;
export const zWalletType = z.enum(WALLET_TYPES);
export type TWalletType = z.infer<typeof zWalletType>;

/**
 * A positive decimal amount as a string, at most 18 decimals. A plain number too large for
 * NUMERIC(38,18) is told apart from a malformed one: AMOUNT_TOO_LARGE, reported first.
 */
export const zAmount = z
  .string(err("AMOUNT_INVALID"))
  .trim()
  .regex(/^\d+(\.\d+)?$/, err("AMOUNT_INVALID"))
  .refine((v) => !/^\d+(\.\d+)?$/.test(v) || fitsNumeric(v), err("AMOUNT_TOO_LARGE"))
  .regex(DECIMAL_STRING, err("AMOUNT_INVALID"))
  .refine((v) => /[1-9]/.test(v), err("AMOUNT_INVALID"));

export const zCurrency = z
  .string(err("CURRENCY_UNSUPPORTED"))
  .trim()
  .toUpperCase()
  .regex(/^[A-Z0-9]{2,10}$/, err("CURRENCY_UNSUPPORTED"));
export const zChain = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z0-9]{2,12}$/, err("FIELD_INVALID"));

export const ZSubmitDepositRequestSchema = z.object({
  channel: z.enum(["crypto", "bank"]).default("crypto"),
  currency: zCurrency,
  chain: zChain,
  amount: zAmount,
  tx_hash: z.string().trim().min(1, err("FIELD_REQUIRED")).max(200),
  proof_upload_id: z.uuid(err("PROOF_REQUIRED")),
  description: z.string().trim().max(500).optional(),
});
export type TSubmitDepositRequest = z.output<typeof ZSubmitDepositRequestSchema>;

export const ZAddWithdrawalAddressRequestSchema = z.object({
  currency: zCurrency,
  chain: zChain,
  address: z.string().trim().min(1, err("FIELD_REQUIRED")).max(120),
  remark: z.string().trim().max(50).optional(),
  memo: z.string().trim().max(64).optional(),
});

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .optional()
    .transform((v) => v || undefined);

export const ZAddBankCardRequestSchema = z.object({
  bank_name: z.string().trim().min(1, err("FIELD_REQUIRED")).max(100),
  account: z.string().trim().min(1, err("FIELD_REQUIRED")).max(64),
  card_id: z
    .string()
    .trim()
    .regex(/^[0-9A-Za-z -]{4,40}$/, err("FIELD_INVALID")),
  swift_code: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^([A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?)?$/, err("FIELD_INVALID"))
    .optional()
    .transform((v) => v || undefined),
  routing_number: z
    .string()
    .trim()
    .regex(/^(\d{9})?$/, err("FIELD_INVALID"))
    .optional()
    .transform((v) => v || undefined),
  bank_address: optionalText(200),
  phone: optionalText(30),
  payee_name: z.string().trim().min(1, err("FIELD_REQUIRED")).max(100),
  payee_address: optionalText(200),
});

export const ZApplyWithdrawalRequestSchema = z
  .object({
    method: z.enum(["crypto", "bank"]).default("crypto"),
    currency: zCurrency,
    address_id: z.coerce.number().int().positive().optional(),
    bank_card_id: z.coerce.number().int().positive().optional(),
    amount: zAmount,
    trade_password: zTradePassword,
    google_code: z
      .string()
      .trim()
      .regex(/^(\d{6})?$/, err("GOOGLE_CODE_WRONG"))
      .optional()
      .transform((v) => v || undefined),
  })
  .superRefine((v, ctx) => {
    // Crypto withdrawals go to a saved address, bank ones to a saved card: name the one missing.
    if (v.method === "crypto" && v.address_id === undefined) {
      ctx.addIssue({ code: "custom", message: "FIELD_REQUIRED", path: ["address_id"] });
    }
    if (v.method === "bank" && v.bank_card_id === undefined) {
      ctx.addIssue({ code: "custom", message: "FIELD_REQUIRED", path: ["bank_card_id"] });
    }
  });
export type TApplyWithdrawalRequest = z.output<typeof ZApplyWithdrawalRequestSchema>;

export const ZTransferRequestSchema = z
  .object({ from: zWalletType, to: zWalletType, currency: zCurrency, amount: zAmount })
  .refine((v) => v.from !== v.to, { message: "SAME_WALLET", path: ["to"] });

export const ZConvertQuoteRequestSchema = z.object({ from: zCurrency, to: zCurrency, amount: zAmount });
/** Converts exactly what a firm quote (`conversion.createQuote`) said, while it lasts. */
export const ZConvertRequestSchema = z.object({ quote_id: z.uuid(err("QUOTE_NOT_FOUND")) });

export const ZPageRequestSchema = z.object({
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(20),
});

export const ZGoogleCodeSchema = z.object({
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, err("GOOGLE_CODE_WRONG")),
});

export const ZDemoLoginRequestSchema = z.object({
  amount: z.string().regex(DECIMAL_STRING, err("AMOUNT_INVALID")),
});
