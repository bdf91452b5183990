import { MoneyDecimal } from "@northstar/shared/money";
import type { c2cMerchants, c2cOrders } from "./c2c.table.ts";

export type Order = typeof c2cOrders.$inferSelect;
type Merchant = typeof c2cMerchants.$inferSelect;
const fixed = (v: string) => new MoneyDecimal(v).toFixed();

/**
 * An order as its owner sees it. The payee's bank details are shown once the stock is reserved
 * (matched or later), with the deadline the countdown runs to while no proof is in.
 */
export function orderView(o: Order, m: Merchant) {
  const payee =
    o.status === "unmatched"
      ? null
      : {
          payeeName: m.payeeName,
          bankName: m.bankName,
          bankAccount: m.bankAccount,
          bankBranch: m.bankBranch,
        };
  return {
    id: o.id,
    merchantId: m.id,
    merchantName: m.name,
    coin: o.coin,
    fiat: o.fiat,
    price: fixed(o.price),
    mode: o.mode,
    fiatAmount: fixed(o.fiatAmount),
    coinAmount: fixed(o.coinAmount),
    status: o.status,
    expiresAt: o.expiresAt,
    clockRunning: o.status === "unmatched" || o.status === "matched",
    payee,
    hasProof: o.proofUploadId !== null,
    proofNote: o.proofNote,
    rejectReason: o.rejectReason,
    createdAt: o.createdAt,
    matchedAt: o.matchedAt,
    paidAt: o.paidAt,
    completedAt: o.completedAt,
    expiredAt: o.expiredAt,
    rejectedAt: o.rejectedAt,
  };
}

/** The back office sees the proof's upload id and who decided. */
export function orderAdminView(o: Order, m: Merchant) {
  return { ...orderView(o, m), userId: o.userId, proofUploadId: o.proofUploadId, decidedBy: o.decidedBy };
}
