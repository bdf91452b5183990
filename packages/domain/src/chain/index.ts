export * from "./config.ts";
export * from "./derivation.ts";
