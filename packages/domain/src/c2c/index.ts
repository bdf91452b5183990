export * from "./c2c.table.ts";
export * from "./expiry-queue.ts";
export * from "./list-orders.ts";
export * from "./merchants.ts";
export * from "./order-view.ts";
export * from "./orders.ts";
export * from "./payment-settings.ts";
export * from "./rules.ts";
