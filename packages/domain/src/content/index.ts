export * from "./content-texts.ts";
export * from "./content.table.ts";
