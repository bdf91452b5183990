export * from "./databases.ts";
export * from "./mailbox.ts";
