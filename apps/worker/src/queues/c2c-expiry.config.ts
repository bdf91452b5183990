import type { WorkerOptions } from "bullmq";

/** Each expiry is one short transaction on one order; several run at once when many fall due together. */
export const c2cExpiryWorkerOptions: Omit<WorkerOptions, "connection" | "prefix"> = {
  concurrency: 10,
};

/**
 * The sweep expires, on start and then this often, every order past its deadline whose job was lost
 * or fell due while no worker ran.
 */
export const C2C_SWEEP_INTERVAL_MS = 60_000;
