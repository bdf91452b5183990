export * from "./store-upload.ts";
export * from "./uploads.table.ts";
