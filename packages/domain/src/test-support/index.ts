export * from "./databases.ts";
export * from "./mailbox.ts";
export * from "./redis.ts";
