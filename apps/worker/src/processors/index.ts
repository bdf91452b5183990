export { startCustodyYieldWorker } from "../queues/custody-yield.ts";
export { startLaunchpadUnlockWorker } from "../queues/launchpad-unlock.ts";
export { startNotificationsWorker } from "../queues/notifications.ts";
export { startOptionSettlement } from "../queues/option-settlement.ts";
export { startProofPublishWorker } from "../queues/proof-publish.ts";
export type { DailyYieldDeps } from "./earn/daily-yield.ts";
export type { SendCodeDeps } from "./notifications/send-code.ts";
export type { SettleOptionsDeps } from "./options/settle-option.ts";
export type { PublishProofDeps } from "./proofs/publish-proof.ts";
