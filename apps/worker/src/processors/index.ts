export { startNotificationsWorker } from "../queues/notifications.ts";
export type { SendCodeDeps } from "./notifications/send-code.ts";
