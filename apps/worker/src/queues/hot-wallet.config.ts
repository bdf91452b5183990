import type { WorkerOptions } from "bullmq";

/**
 * Payouts of one wallet sign one at a time under the nonce's row lock; several jobs at once overlap
 * their node calls (fees, receipts, sending).
 */
export const hotWalletWorkerOptions: Omit<WorkerOptions, "connection" | "prefix"> = {
  concurrency: 8,
};

/** A payout on its way is looked at again this often (receipts, confirmations, a stuck transaction). */
export const HOT_WALLET_POLL_MS = 5_000;

/** The sweep enqueues, on start and then this often, every withdrawal the hot wallet still has work on. */
export const HOT_WALLET_SWEEP_INTERVAL_MS = 60_000;
