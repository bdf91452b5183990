export * from "./proofs.table.ts";
export * from "./publish.ts";
