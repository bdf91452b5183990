export * from "./candle-store.ts";
export * from "./candles/index.ts";
export * from "./catalogue.ts";
export * from "./feed-health.ts";
export * from "./feed-state.ts";
export * from "./prices.ts";
export * from "./realtime.ts";
export * from "./tick-provenance.ts";
