/**
 * Transition tables for stateful entities. A service changes state only through the domain's
 * `transition` helper, which checks the table and does a compare-and-set update.
 */
export type Actor = "user" | "operator" | "system";

export interface Transition<S extends string> {
  from: S;
  to: S;
  by: readonly Actor[];
}

export interface StateMachine<S extends string> {
  name: string;
  states: readonly S[];
  initial: S;
  transitions: readonly Transition<S>[];
}

export function defineMachine<const S extends string>(machine: StateMachine<S>): StateMachine<S> {
  return machine;
}

export function findTransition<S extends string>(
  machine: StateMachine<S>,
  from: S,
  to: S,
  by: Actor,
): Transition<S> | undefined {
  return machine.transitions.find((t) => t.from === from && t.to === to && t.by.includes(by));
}

/** Operator accounts: active ↔ disabled. */
export const operatorMachine = defineMachine({
  name: "operator",
  states: ["active", "disabled"],
  initial: "active",
  transitions: [
    { from: "active", to: "disabled", by: ["operator"] },
    { from: "disabled", to: "active", by: ["operator"] },
  ],
});

/** User accounts: an operator freezes and unfreezes; a frozen user's sessions end (code 1000). */
export const userStatusMachine = defineMachine({
  name: "user-status",
  states: ["active", "frozen"],
  initial: "active",
  transitions: [
    { from: "active", to: "frozen", by: ["operator"] },
    { from: "frozen", to: "active", by: ["operator"] },
  ],
});

/**
 * Deposits: the user submits (pending); an operator confirms (success, credited once through the
 * ledger) or rejects (failed). Final states never change.
 */
export const depositMachine = defineMachine({
  name: "deposit",
  states: ["pending", "success", "failed"],
  initial: "pending",
  transitions: [
    { from: "pending", to: "success", by: ["operator", "system"] },
    { from: "pending", to: "failed", by: ["operator", "system"] },
  ],
});

/**
 * A transfer to a user's deposit address seen by the chain watcher: `confirming` until its block is
 * deep enough (then `credited`, for good), or `below_minimum` (recorded, never credited). A replaced
 * block makes what it held `orphaned`; the same transfer in a new block is `confirming` (or
 * `below_minimum`) again. A credited transfer stays credited whatever happens to its block (an
 * operator alert says so).
 */
export const chainTransferMachine = defineMachine({
  name: "chain-transfer",
  states: ["confirming", "credited", "below_minimum", "orphaned"],
  initial: "confirming",
  transitions: [
    { from: "confirming", to: "credited", by: ["system"] },
    { from: "confirming", to: "orphaned", by: ["system"] },
    { from: "below_minimum", to: "orphaned", by: ["system"] },
    { from: "orphaned", to: "confirming", by: ["system"] },
    { from: "orphaned", to: "below_minimum", by: ["system"] },
  ],
});
export type ChainTransferStatus = (typeof chainTransferMachine.states)[number];

/**
 * Withdrawals: the amount is held at application (pending); an operator approves or rejects (failed,
 * the hold is released); the user may cancel while pending (cancelled, released). An approval paid
 * outside the platform (bank wire, a chain without a node) ends at success. An approval on a chain the
 * platform's hot wallet pays from is `queued` for the signer (system): over the daily hot-wallet limit
 * it waits in `awaiting_release` until an operator releases it (back to queued) or rejects it (failed,
 * refunded); otherwise the signer signs and sends it (`broadcast`), the chain includes it
 * (`confirming`, n of N blocks; back to broadcast if a reorganisation drops the including block) and
 * it ends at success after N confirmations, or failed (refunded once) when the chain reverts it.
 */
export const withdrawalMachine = defineMachine({
  name: "withdrawal",
  states: [
    "pending",
    "queued",
    "awaiting_release",
    "broadcast",
    "confirming",
    "success",
    "failed",
    "cancelled",
  ],
  initial: "pending",
  transitions: [
    { from: "pending", to: "success", by: ["operator"] },
    { from: "pending", to: "queued", by: ["operator"] },
    { from: "pending", to: "failed", by: ["operator"] },
    { from: "pending", to: "cancelled", by: ["user"] },
    { from: "queued", to: "awaiting_release", by: ["system"] },
    { from: "awaiting_release", to: "queued", by: ["operator"] },
    { from: "awaiting_release", to: "failed", by: ["operator"] },
    { from: "queued", to: "broadcast", by: ["system"] },
    { from: "broadcast", to: "confirming", by: ["system"] },
    { from: "broadcast", to: "success", by: ["system"] },
    { from: "confirming", to: "success", by: ["system"] },
    { from: "confirming", to: "broadcast", by: ["system"] },
    { from: "broadcast", to: "failed", by: ["system"] },
    { from: "confirming", to: "failed", by: ["system"] },
  ],
});
/**
 * A sweep of one deposit address in one currency to the hot wallet, run by an operator's command:
 * `planned` (the amount and fee caps fixed), `gas_sent` (the hot wallet's gas top-up signed and
 * sent, or none was needed), `sent` (the deposit address's transfer signed and sent), then
 * `confirmed` after its confirmations or `failed` when the chain reverts a transfer. Each signed
 * transaction is stored with the move that sends it, so a rerun sends the same bytes, never new ones.
 */
export const sweepMachine = defineMachine({
  name: "chain-sweep",
  states: ["planned", "gas_sent", "sent", "confirmed", "failed"],
  initial: "planned",
  transitions: [
    { from: "planned", to: "gas_sent", by: ["system"] },
    { from: "planned", to: "sent", by: ["system"] },
    { from: "gas_sent", to: "sent", by: ["system"] },
    { from: "gas_sent", to: "failed", by: ["system"] },
    { from: "sent", to: "confirmed", by: ["system"] },
    { from: "sent", to: "failed", by: ["system"] },
  ],
});
export type SweepStatus = (typeof sweepMachine.states)[number];

export type DepositStatus = (typeof depositMachine.states)[number];
export type WithdrawalStatus = (typeof withdrawalMachine.states)[number];

/**
 * A money request under an idempotency key: claimed `running` before the action starts, `done` in the
 * action's own transaction with its answer. A refused or abandoned claim is deleted, not kept, so a
 * retry may run the action again.
 */
export const idempotentRequestMachine = defineMachine({
  name: "idempotent-request",
  states: ["running", "done"],
  initial: "running",
  transitions: [{ from: "running", to: "done", by: ["system"] }],
});
export type IdempotentRequestStatus = (typeof idempotentRequestMachine.states)[number];

/**
 * Spot orders. The API records an order as `pending` with its funds held; the matcher (system) takes
 * it: it rests (`open`), trades (`partial`, then `filled`), or ends `cancelled` (by the user's cancel
 * request, an immediate-or-cancel or market remainder, or self-trade prevention) or `rejected` (the
 * book refused it). A user never changes an order's state directly: a cancel is a request the matcher
 * applies in order with the other commands of its market.
 */
export const spotOrderMachine = defineMachine({
  name: "spot-order",
  states: ["pending", "open", "partial", "filled", "cancelled", "rejected"],
  initial: "pending",
  transitions: [
    { from: "pending", to: "open", by: ["system"] },
    { from: "pending", to: "partial", by: ["system"] },
    { from: "pending", to: "filled", by: ["system"] },
    { from: "pending", to: "cancelled", by: ["system"] },
    { from: "pending", to: "rejected", by: ["system"] },
    { from: "open", to: "partial", by: ["system"] },
    { from: "open", to: "filled", by: ["system"] },
    { from: "open", to: "cancelled", by: ["system"] },
    { from: "partial", to: "filled", by: ["system"] },
    { from: "partial", to: "cancelled", by: ["system"] },
  ],
});
export type SpotOrderStatus = (typeof spotOrderMachine.states)[number];
/** Orders that may still trade. */
export const SPOT_OPEN_STATUSES: readonly SpotOrderStatus[] = ["pending", "open", "partial"];

/**
 * Verification applications (primary KYC, advanced KYC, address proof, credit proof): "unverified" is
 * having no application. The user applies (`under_review`); an operator approves or rejects with a
 * reason. Both are final: a rejected user applies again with a new application, and approved data is
 * read-only forever (no transition leaves `approved`).
 */
export const kycApplicationMachine = defineMachine({
  name: "kyc-application",
  states: ["under_review", "approved", "rejected"],
  initial: "under_review",
  transitions: [
    { from: "under_review", to: "approved", by: ["operator"] },
    { from: "under_review", to: "rejected", by: ["operator"] },
  ],
});
export type KycApplicationStatus = (typeof kycApplicationMachine.states)[number];

/**
 * Managed-earning (custody) orders, SPEC section 4: in custody (`holding`) until maturity
 * (`completed`, by the daily yield job) or an early redemption: the user asks (`redeeming`), which
 * is settled (`redeemed`) at once or after an operator's approval when policy asks for review; a
 * rejected request (`redemption_rejected`) stays in custody and may be re-applied.
 */
export const earnOrderMachine = defineMachine({
  name: "earn-order",
  states: ["holding", "redeeming", "redeemed", "completed", "redemption_rejected"],
  initial: "holding",
  transitions: [
    { from: "holding", to: "redeeming", by: ["user"] },
    { from: "redeeming", to: "redeemed", by: ["operator", "system"] },
    { from: "redeeming", to: "redemption_rejected", by: ["operator"] },
    { from: "redemption_rejected", to: "redeeming", by: ["user"] },
    { from: "holding", to: "completed", by: ["system"] },
    { from: "redeeming", to: "completed", by: ["system"] },
    { from: "redemption_rejected", to: "completed", by: ["system"] },
  ],
});
export type EarnOrderStatus = (typeof earnOrderMachine.states)[number];
/** Orders whose principal is still in custody and earns the daily yield. */
export const EARN_CUSTODY_STATUSES: readonly EarnOrderStatus[] = [
  "holding",
  "redeeming",
  "redemption_rejected",
];

/**
 * New-coin subscriptions, SPEC section 4: a subscription waits `reviewing` with its amount frozen;
 * at the close the allocation passes it (`passed`, the rest refunded) or finds nothing left for it
 * (`sold_out`, refunded); an operator may reject it (`failed`, refunded); a failed issuance ends
 * every subscription `issuance_failed` and then `refunded` once the refund is posted.
 */
export const launchpadSubscriptionMachine = defineMachine({
  name: "launchpad-subscription",
  states: ["reviewing", "passed", "failed", "sold_out", "issuance_failed", "refunded"],
  initial: "reviewing",
  transitions: [
    { from: "reviewing", to: "passed", by: ["system", "operator"] },
    { from: "reviewing", to: "sold_out", by: ["system", "operator"] },
    { from: "reviewing", to: "failed", by: ["operator"] },
    { from: "reviewing", to: "issuance_failed", by: ["operator"] },
    { from: "issuance_failed", to: "refunded", by: ["operator", "system"] },
  ],
});
export type LaunchpadSubscriptionStatus = (typeof launchpadSubscriptionMachine.states)[number];

/** New-coin offerings: open for subscription until allocated, or failed (everything refunded). */
export const launchpadOfferingMachine = defineMachine({
  name: "launchpad-offering",
  states: ["open", "allocated", "issuance_failed"],
  initial: "open",
  transitions: [
    { from: "open", to: "allocated", by: ["system", "operator"] },
    { from: "open", to: "issuance_failed", by: ["operator"] },
  ],
});

/**
 * Options orders: bought `open` with the amount and fee paid; the settlement job (system) closes it
 * at expiry with the first recorded tick at or after the expiry instant: `won`, `lost` or `tied`.
 * When no tick comes within the policy's gap after the expiry (`options.settlement.maxGapSeconds`)
 * there is no honest price: the order is `void` and its amount and fee are refunded in full.
 * No user or operator transition exists, so nobody can choose an outcome.
 */
export const optionOrderMachine = defineMachine({
  name: "option-order",
  states: ["open", "won", "lost", "tied", "void"],
  initial: "open",
  transitions: [
    { from: "open", to: "won", by: ["system"] },
    { from: "open", to: "lost", by: ["system"] },
    { from: "open", to: "tied", by: ["system"] },
    { from: "open", to: "void", by: ["system"] },
  ],
});
export type OptionOrderStatus = (typeof optionOrderMachine.states)[number];

/**
 * Loans, SPEC section 4. The user applies (`unreviewed`) and may withdraw while it waits
 * (`withdrawn`); an operator rejects it with a reason (`rejected`) or approves it, which disburses
 * the principal (`disbursed`). The user reapplies a rejected or withdrawn application (back to
 * `unreviewed`). A first partial repayment makes it `repaying`; paying all that is owed clears it
 * (`cleared`). The daily overdue job (system) marks it `overdue` once the due day and the
 * interest-free grace days have passed; an overdue loan stays overdue until it is cleared.
 * "Over limit" is a refusal at application, not a state.
 */
export const loanMachine = defineMachine({
  name: "loan",
  states: ["unreviewed", "disbursed", "repaying", "overdue", "cleared", "rejected", "withdrawn"],
  initial: "unreviewed",
  transitions: [
    { from: "unreviewed", to: "disbursed", by: ["operator"] },
    { from: "unreviewed", to: "rejected", by: ["operator"] },
    { from: "unreviewed", to: "withdrawn", by: ["user"] },
    { from: "rejected", to: "unreviewed", by: ["user"] },
    { from: "withdrawn", to: "unreviewed", by: ["user"] },
    { from: "disbursed", to: "repaying", by: ["user", "operator"] },
    { from: "disbursed", to: "cleared", by: ["user", "operator"] },
    { from: "repaying", to: "cleared", by: ["user", "operator"] },
    { from: "overdue", to: "cleared", by: ["user", "operator"] },
    { from: "disbursed", to: "overdue", by: ["system"] },
    { from: "repaying", to: "overdue", by: ["system"] },
  ],
});
export type LoanStatus = (typeof loanMachine.states)[number];
/** Loans whose principal is out: they owe money, accrue late fees once overdue, count against the limit. */
export const LOAN_OUTSTANDING_STATUSES: readonly LoanStatus[] = ["disbursed", "repaying", "overdue"];
/** Loans that hold part of the user's limit: waiting for review or outstanding. */
export const LOAN_LIMIT_STATUSES: readonly LoanStatus[] = ["unreviewed", ...LOAN_OUTSTANDING_STATUSES];

/**
 * A wire repayment: the user submits a proof (`pending`); an operator confirms it (`confirmed`, the
 * amount is applied to the loan) or rejects it (`rejected`).
 */
export const loanWireRepaymentMachine = defineMachine({
  name: "loan-wire-repayment",
  states: ["pending", "confirmed", "rejected"],
  initial: "pending",
  transitions: [
    { from: "pending", to: "confirmed", by: ["operator"] },
    { from: "pending", to: "rejected", by: ["operator"] },
  ],
});
export type LoanWireRepaymentStatus = (typeof loanWireRepaymentMachine.states)[number];

/**
 * C2C purchase-by-wire orders, SPEC section 4 (unmatched, matched, completed, expired, rejected)
 * plus `paid`: the payment proof is submitted, which stops the expiry clock. An order is created
 * `unmatched` with its merchant and price locked; it is `matched` when the merchant's stock for it
 * is reserved (at once, or later by the system or an operator when stock arrives). The user submits
 * the proof (`paid`); the merchant's operator confirms (`completed`: the coins leave escrow for the
 * user) or rejects with a reason (`rejected`, the reservation released). An order not paid by its
 * deadline (policy `c2c.orderValidityMinutes`) is `expired` by the expiry job, releasing the stock.
 */
export const c2cOrderMachine = defineMachine({
  name: "c2c-order",
  states: ["unmatched", "matched", "paid", "completed", "expired", "rejected", "cancelled"],
  initial: "unmatched",
  transitions: [
    { from: "unmatched", to: "matched", by: ["system", "operator"] },
    // The buyer may cancel until they say they paid; a matched order's reserved stock returns.
    { from: "unmatched", to: "cancelled", by: ["user"] },
    { from: "matched", to: "cancelled", by: ["user"] },
    { from: "unmatched", to: "expired", by: ["system"] },
    { from: "unmatched", to: "rejected", by: ["operator"] },
    { from: "matched", to: "paid", by: ["user"] },
    { from: "matched", to: "expired", by: ["system"] },
    { from: "matched", to: "rejected", by: ["operator"] },
    { from: "paid", to: "completed", by: ["operator"] },
    { from: "paid", to: "rejected", by: ["operator"] },
  ],
});
export type C2cOrderStatus = (typeof c2cOrderMachine.states)[number];
/** Orders whose expiry clock runs (no proof yet). */
export const C2C_CLOCK_STATUSES: readonly C2cOrderStatus[] = ["unmatched", "matched"];

/** C2C merchants: an operator pauses (no new orders) and resumes them. */
export const c2cMerchantMachine = defineMachine({
  name: "c2c-merchant",
  states: ["active", "paused"],
  initial: "active",
  transitions: [
    { from: "active", to: "paused", by: ["operator"] },
    { from: "paused", to: "active", by: ["operator"] },
  ],
});
export type C2cMerchantStatus = (typeof c2cMerchantMachine.states)[number];

/**
 * API keys of trading bots: the owner disables and enables a key; an operator blocks one (the owner
 * cannot enable it again, only the operator can); the owner deletes a key in any state (the row stays
 * for the audit trail, and the key never signs again).
 */
export const apiKeyMachine = defineMachine({
  name: "api-key",
  states: ["active", "disabled", "blocked", "deleted"],
  initial: "active",
  transitions: [
    { from: "active", to: "disabled", by: ["user"] },
    { from: "disabled", to: "active", by: ["user"] },
    { from: "active", to: "blocked", by: ["operator"] },
    { from: "disabled", to: "blocked", by: ["operator"] },
    { from: "blocked", to: "active", by: ["operator"] },
    { from: "active", to: "deleted", by: ["user"] },
    { from: "disabled", to: "deleted", by: ["user"] },
    { from: "blocked", to: "deleted", by: ["user"] },
  ],
});
export type ApiKeyStatus = (typeof apiKeyMachine.states)[number];

/**
 * Contract positions: a limit order waits `pending` until the feed crosses its price (the risk
 * engine fills it: `holding`) or the user cancels it. A market order opens `holding`. A holding
 * position ends `closed` (the user, TP/SL, delivery) or `liquidated` (the risk engine). A partial
 * close stays `holding` with fewer lots.
 */
export const contractPositionMachine = defineMachine({
  name: "contract-position",
  states: ["pending", "holding", "closed", "liquidated", "cancelled"],
  initial: "pending",
  transitions: [
    { from: "pending", to: "holding", by: ["system"] },
    { from: "pending", to: "cancelled", by: ["user", "operator"] },
    { from: "holding", to: "closed", by: ["user", "system"] },
    { from: "holding", to: "liquidated", by: ["system"] },
  ],
});
export type ContractPositionStatus = (typeof contractPositionMachine.states)[number];
