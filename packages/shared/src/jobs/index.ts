import { z } from "zod";
import { LANGUAGES } from "../languages.ts";

/** Queue and job names, and the payload each job carries. The API enqueues typed payloads. */
export const QUEUES = {
  notifications: "notifications",
  custodyYield: "custody-yield",
  launchpadUnlock: "launchpad-unlock",
  optionSettlement: "option-settlement",
  proofPublish: "proof-publish",
  loanOverdue: "loan-overdue",
  c2cExpiry: "c2c-expiry",
  contractOvernight: "contract-overnight",
  contractDelivery: "contract-delivery",
  referralRewards: "referral-rewards",
  ledgerReconcile: "ledger-reconcile",
  hotWallet: "hot-wallet",
} as const;

export const JOBS = {
  sendCode: "send-code",
  dailyYield: "daily-yield",
  unlockCoins: "unlock-coins",
  settleOptionsDue: "settle-options-due",
  publishProof: "publish-proof",
  markLoansOverdue: "mark-loans-overdue",
  expireC2cOrder: "expire-c2c-order",
  chargeOvernight: "charge-overnight",
  deliverContracts: "deliver-contracts",
  payReferralRewards: "pay-referral-rewards",
  pruneContractTicks: "prune-contract-ticks",
  reconcileLedger: "reconcile-ledger",
  payWithdrawal: "pay-withdrawal",
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

/**
 * Settles the options orders expired by `dueAt` (epoch ms). Orders expiring in the same 100 ms share
 * one job (its id carries the instant); the settlement is set-based, so one job settles all of them.
 */
export const ZSettleOptionsDueJobSchema = z.object({ dueAt: z.number().int().positive() });
export type TSettleOptionsDueJob = z.infer<typeof ZSettleOptionsDueJobSchema>;

/** Expires one C2C order at its deadline unless its proof came first; the order id is the business key. */
export const ZExpireC2cOrderJobSchema = z.object({ orderId: z.number().int().positive() });
export type TExpireC2cOrderJob = z.infer<typeof ZExpireC2cOrderJobSchema>;

/**
 * Moves one hot-wallet payout on (sign and send, follow to N confirmations, replace when stuck); the
 * withdrawal id is the business key and the job id, so a second delivery changes nothing.
 */
export const ZPayWithdrawalJobSchema = z.object({ withdrawalId: z.number().int().positive() });
export type TPayWithdrawalJob = z.infer<typeof ZPayWithdrawalJobSchema>;
