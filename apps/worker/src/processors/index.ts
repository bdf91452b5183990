export { startCustodyYieldWorker } from "../queues/custody-yield.ts";
export { startLaunchpadUnlockWorker } from "../queues/launchpad-unlock.ts";
export { startLoanOverdueWorker } from "../queues/loan-overdue.ts";
export { startNotificationsWorker } from "../queues/notifications.ts";
export { startOptionSettlement } from "../queues/option-settlement.ts";
export type { DailyYieldDeps } from "./earn/daily-yield.ts";
export type { LoanOverdueDeps } from "./loans/mark-loans-overdue.ts";
export type { SendCodeDeps } from "./notifications/send-code.ts";
export type { SettleOptionDeps } from "./options/settle-option.ts";
