export { startNotificationsWorker } from "../queues/notifications.ts";
export { startOptionSettlement } from "../queues/option-settlement.ts";
export type { SendCodeDeps } from "./notifications/send-code.ts";
export type { SettleOptionDeps } from "./options/settle-option.ts";
