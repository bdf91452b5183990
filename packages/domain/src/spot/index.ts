// Registers the catalogue's check for resting orders before a market's grid changes.
import "./open-orders-check.ts";
// Registers the markets' source of the platform's own 24h volume (the tickers show it).
import "./platform-volume.ts";
// Registers the users' spot turnover with funding's withdrawal requirement.
import "./turnover.ts";

export * from "./balances.ts";
export * from "./cancel-order.ts";
export * from "./commands.ts";
export * from "./list-orders.ts";
export * from "./market-maker.ts";
export * from "./matcher/matcher.ts";
export * from "./matcher-lag.ts";
export * from "./order-view.ts";
export * from "./place-order.ts";
export * from "./spot.table.ts";
export * from "./terms.ts";
