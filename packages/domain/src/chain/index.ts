export * from "./addresses.ts";
export * from "./claims.ts";
export * from "./config.ts";
export * from "./deposit-options.ts";
export * from "./derivation.ts";
export * from "./watcher.ts";
