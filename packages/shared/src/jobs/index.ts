import { z } from "zod";
import { LANGUAGES } from "../languages.ts";

/** Queue and job names, and the payload each job carries. The API enqueues typed payloads. */
export const QUEUES = {
  notifications: "notifications",
  custodyYield: "custody-yield",
  launchpadUnlock: "launchpad-unlock",
  optionSettlement: "option-settlement",
  contractOvernight: "contract-overnight",
  contractDelivery: "contract-delivery",
} as const;

export const JOBS = {
  sendCode: "send-code",
  dailyYield: "daily-yield",
  unlockCoins: "unlock-coins",
  settleOption: "settle-option",
  chargeOvernight: "charge-overnight",
  deliverContracts: "deliver-contracts",
} as const;

export const ZSendCodeJobSchema = z.object({
  channel: z.enum(["email", "phone"]),
  /** An email address, or a phone in E.164 form. */
  to: z.string().min(3),
  code: z.string().regex(/^\d{6}$/),
  purpose: z.string(),
  lang: z.enum(LANGUAGES),
  ttlMinutes: z.number().int().positive(),
});
export type TSendCodeJob = z.infer<typeof ZSendCodeJobSchema>;

/** Settles one options order at its expiry; the order id is the business key. */
export const ZSettleOptionJobSchema = z.object({ orderId: z.number().int().positive() });
export type TSettleOptionJob = z.infer<typeof ZSettleOptionJobSchema>;
