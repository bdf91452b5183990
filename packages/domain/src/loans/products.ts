import type { TLoanProductInput } from "@northstar/shared/contracts/loans";
import { MoneyDecimal } from "@northstar/shared/money";
import { asc, eq } from "drizzle-orm";
import { recordAudit } from "../audit/index.ts";
import type { Db, DbOrTx } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { loanProducts } from "./loans.table.ts";

export type LoanProduct = typeof loanProducts.$inferSelect;

/** A product as the user and the back office see it. */
export function productView(p: LoanProduct) {
  return {
    id: p.id,
    name: p.name,
    currency: p.currency,
    cycleDays: [...p.cycleDays].sort((a, b) => a - b),
    dailyRate: new MoneyDecimal(p.dailyRate).toFixed(),
    overdueRate: new MoneyDecimal(p.overdueRate).toFixed(),
    minAmount: new MoneyDecimal(p.minAmount).toFixed(),
    maxAmount: new MoneyDecimal(p.maxAmount).toFixed(),
    enabled: p.enabled,
  };
}
export type LoanProductView = ReturnType<typeof productView>;

const values = (input: TLoanProductInput) => ({
  name: input.name,
  currency: input.currency,
  cycleDays: [...new Set(input.cycle_days)].sort((a, b) => a - b),
  dailyRate: input.daily_rate,
  overdueRate: input.overdue_rate,
  minAmount: input.min_amount,
  maxAmount: input.max_amount,
  enabled: input.enabled,
});

/** An operator creates a product (audited). */
export async function createLoanProduct(db: Db, input: TLoanProductInput, actor: string) {
  return db.transaction(async (tx) => {
    const [p] = await tx.insert(loanProducts).values(values(input)).returning();
    if (!p) {
      throw new AppError("REQUEST_ERROR");
    }
    await recordAudit(tx, {
      actor,
      action: "loans.product.create",
      subject: String(p.id),
      details: { ...input },
    });
    return productView(p);
  });
}

/** An operator changes a product; loans already applied for keep the terms they were quoted. */
export async function updateLoanProduct(db: Db, id: number, input: TLoanProductInput, actor: string) {
  return db.transaction(async (tx) => {
    const [p] = await tx
      .update(loanProducts)
      .set({ ...values(input), updatedAt: new Date() })
      .where(eq(loanProducts.id, id))
      .returning();
    if (!p) {
      throw new AppError("LOAN_PRODUCT_NOT_FOUND", {}, "product_id");
    }
    await recordAudit(tx, {
      actor,
      action: "loans.product.update",
      subject: String(id),
      details: { ...input },
    });
    return productView(p);
  });
}

/** Products in id order; users see only enabled ones. */
export async function listLoanProducts(db: DbOrTx, options: { includeDisabled?: boolean } = {}) {
  const rows = await db
    .select()
    .from(loanProducts)
    .where(options.includeDisabled ? undefined : eq(loanProducts.enabled, true))
    .orderBy(asc(loanProducts.id));
  return rows.map(productView);
}

/** An enabled product, or the refusal naming `product_id`. */
export async function getEnabledProduct(db: DbOrTx, id: number): Promise<LoanProduct> {
  const [p] = await db.select().from(loanProducts).where(eq(loanProducts.id, id));
  if (!p?.enabled) {
    throw new AppError("LOAN_PRODUCT_NOT_FOUND", {}, "product_id");
  }
  return p;
}
