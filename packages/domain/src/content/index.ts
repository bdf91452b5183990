export * from "./content.table.ts";
export * from "./content-texts.ts";
export * from "./seed-content.ts";
