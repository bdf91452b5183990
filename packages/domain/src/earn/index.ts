export { addDays, daysBetween, daysDue, utcDay } from "./days.ts";
export * from "./earn.table.ts";
export * from "./orders.ts";
export * from "./products.ts";
export * from "./settle.ts";
