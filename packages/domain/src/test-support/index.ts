export * from "./compiled.ts";
export * from "./databases.ts";
export * from "./mailbox.ts";
export * from "./market-data.ts";
export * from "./postgres-cluster.ts";
export * from "./redis.ts";
export * from "./test-chain.ts";
export * from "./until.ts";
