export * from "./content.table.ts";
export * from "./content-admin.ts";
export * from "./content-texts.ts";
export * from "./help-banners.ts";
export * from "./seed-content.ts";
