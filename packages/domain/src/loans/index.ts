export * from "./apply.ts";
export * from "./list.ts";
export * from "./loans.table.ts";
export * from "./overdue.ts";
export * from "./products.ts";
export * from "./repay.ts";
export * from "./review.ts";
export * from "./view.ts";
