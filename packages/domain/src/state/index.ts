export * from "./transition.ts";
