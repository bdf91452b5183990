export * from "./prices.ts";
