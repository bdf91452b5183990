export * from "./deliver-code.ts";
export * from "./notifier.ts";
