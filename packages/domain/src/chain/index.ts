export * from "./addresses.ts";
export * from "./config.ts";
export * from "./derivation.ts";
export * from "./watcher.ts";
