export * from "./budget.ts";
export * from "./rewards.table.ts";
export * from "./sign-in.ts";
export { cycleState, localDate } from "./sign-in-cycle.ts";
