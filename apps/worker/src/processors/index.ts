export { startContractOvernightWorker } from "../queues/contract-overnight.ts";
export { startCustodyYieldWorker } from "../queues/custody-yield.ts";
export { startLaunchpadUnlockWorker } from "../queues/launchpad-unlock.ts";
export { startNotificationsWorker } from "../queues/notifications.ts";
export { startOptionSettlement } from "../queues/option-settlement.ts";
export type { ChargeOvernightDeps } from "./contracts/charge-overnight.ts";
export type { DailyYieldDeps } from "./earn/daily-yield.ts";
export type { SendCodeDeps } from "./notifications/send-code.ts";
export type { SettleOptionDeps } from "./options/settle-option.ts";
