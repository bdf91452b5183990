export { OrderBook } from "./book.ts";
export { type EngineEvent, RecordingSink } from "./recording-sink.ts";
export * from "./types.ts";
export { fromLots, fromQuoteUnits, fromTicks, toLots, toQuoteUnits, toTicks } from "./units.ts";
