export * from "./aggregate.ts";
export * from "./seed.ts";
