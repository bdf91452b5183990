export * from "./ccxt.ts";
export * from "./csv.ts";
export * from "./factory.ts";
export * from "./grid.ts";
export * from "./history.ts";
export * from "./replay.ts";
export * from "./simulator.ts";
export * from "./types.ts";
