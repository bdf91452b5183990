export * from "./seed.ts";
