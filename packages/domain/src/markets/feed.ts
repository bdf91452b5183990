// The worker's side of market data: feeds and the publishing loop. Kept apart from index.ts so
// the API, which only reads market data, never loads the feed adapters (ccxt is large).
export * from "./feeds/index.ts";
export * from "./market-data.ts";
