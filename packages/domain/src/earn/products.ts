import type { TEarnFamily, TEarnProductInput } from "@northstar/shared/contracts/earn";
import { MoneyDecimal } from "@northstar/shared/money";
import { and, asc, desc, eq, gte, sql } from "drizzle-orm";
import { recordAudit } from "../audit/index.ts";
import type { DbOrTx } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { utcDay } from "./days.ts";
import { earnDailyRates, earnProducts, earnYieldDays } from "./earn.table.ts";

export type EarnProduct = typeof earnProducts.$inferSelect;

/** What a user sees before buying: every term, the remaining capacity and the rates published ahead. */
export function productView(p: EarnProduct, published: { day: string; rate: string }[] = []) {
  return {
    id: p.id,
    family: p.family,
    name: p.name,
    currency: p.currency,
    cycleDays: p.cycleDays,
    rateMin: new MoneyDecimal(p.rateMin).toFixed(),
    rateMax: new MoneyDecimal(p.rateMax).toFixed(),
    fixedRate: new MoneyDecimal(p.rateMin).equals(p.rateMax),
    minAmount: new MoneyDecimal(p.minAmount).toFixed(),
    maxAmount: new MoneyDecimal(p.maxAmount).toFixed(),
    userLimit: new MoneyDecimal(p.userLimit).toFixed(),
    userCount: p.userCount,
    capacity: new MoneyDecimal(p.capacity).toFixed(),
    remaining: new MoneyDecimal(p.capacity).minus(p.sold).toFixed(),
    riskLevel: p.riskLevel,
    redemptionRule: p.redemptionRule,
    onSale: p.onSale === "on",
    published,
  };
}
export type EarnProductView = ReturnType<typeof productView>;

export async function listProducts(db: DbOrTx, family?: TEarnFamily, includeOff = false) {
  const rows = await db
    .select()
    .from(earnProducts)
    .where(
      and(
        family ? eq(earnProducts.family, family) : undefined,
        includeOff ? undefined : eq(earnProducts.onSale, "on"),
      ),
    )
    .orderBy(asc(earnProducts.family), asc(earnProducts.cycleDays), asc(earnProducts.id));
  return rows.map((p) => productView(p));
}

/** One product on sale, with the rates published from today on. */
export async function getProduct(db: DbOrTx, id: number, now = new Date()) {
  const [p] = await db.select().from(earnProducts).where(eq(earnProducts.id, id));
  if (p?.onSale !== "on") {
    throw new AppError("EARN_PRODUCT_NOT_FOUND", {}, "product_id");
  }
  return productView(p, await listPublishedRates(db, id, utcDay(now)));
}

export async function listPublishedRates(db: DbOrTx, productId: number, fromDay = "1970-01-01") {
  const rows = await db
    .select({ day: earnDailyRates.day, rate: earnDailyRates.rate })
    .from(earnDailyRates)
    .where(and(eq(earnDailyRates.productId, productId), gte(earnDailyRates.day, fromDay)))
    .orderBy(asc(earnDailyRates.day), asc(earnDailyRates.id));
  return rows.map((r) => ({ day: r.day, rate: new MoneyDecimal(r.rate).toFixed() }));
}

export async function createProduct(db: DbOrTx, input: TEarnProductInput, actor: string) {
  const [row] = await db
    .insert(earnProducts)
    .values({
      family: input.family,
      name: input.name,
      currency: input.currency,
      cycleDays: input.cycle_days,
      rateMin: input.rate_min,
      rateMax: input.rate_max,
      minAmount: input.min_amount,
      maxAmount: input.max_amount,
      userLimit: input.user_limit,
      userCount: input.user_count,
      capacity: input.capacity,
      riskLevel: input.risk_level,
      redemptionRule: input.redemption_rule,
    })
    .returning();
  if (!row) {
    throw new AppError("REQUEST_ERROR");
  }
  await recordAudit(db, {
    actor,
    action: "earn.product.create",
    subject: String(row.id),
    details: { ...input },
  });
  return productView(row);
}

export async function setProductOnSale(db: DbOrTx, id: number, onSale: boolean, actor: string) {
  const [row] = await db
    .update(earnProducts)
    .set({ onSale: onSale ? "on" : "off" })
    .where(eq(earnProducts.id, id))
    .returning();
  if (!row) {
    throw new AppError("EARN_PRODUCT_NOT_FOUND", {}, "product_id");
  }
  await recordAudit(db, { actor, action: "earn.product.sale", subject: String(id), details: { onSale } });
  return productView(row);
}

/**
 * An operator publishes a range product's rate for a day that has not started: within the range,
 * once. A published rate is never changed, so what a day paid is what was announced.
 */
export async function publishRate(
  db: DbOrTx,
  params: { productId: number; day: string; rate: string; actor: string },
  now = new Date(),
) {
  const [p] = await db.select().from(earnProducts).where(eq(earnProducts.id, params.productId));
  if (!p) {
    throw new AppError("EARN_PRODUCT_NOT_FOUND", {}, "product_id");
  }
  if (params.day <= utcDay(now)) {
    throw new AppError("EARN_RATE_NOT_FUTURE", {}, "day");
  }
  const rate = new MoneyDecimal(params.rate);
  if (rate.lessThan(p.rateMin) || rate.greaterThan(p.rateMax)) {
    throw new AppError(
      "EARN_RATE_OUT_OF_RANGE",
      { min: new MoneyDecimal(p.rateMin).toFixed(), max: new MoneyDecimal(p.rateMax).toFixed() },
      "rate",
    );
  }
  const inserted = await db
    .insert(earnDailyRates)
    .values({ productId: p.id, day: params.day, rate: rate.toFixed(), publishedBy: params.actor })
    .onConflictDoNothing()
    .returning({ id: earnDailyRates.id });
  if (inserted.length === 0) {
    throw new AppError("EARN_RATE_PUBLISHED", {}, "day");
  }
  await recordAudit(db, {
    actor: params.actor,
    action: "earn.rate.publish",
    subject: String(p.id),
    details: { day: params.day, rate: rate.toFixed() },
  });
  return { productId: p.id, day: params.day, rate: rate.toFixed() };
}

/** The yield paid per day and product, latest first: the back office's report. */
export async function yieldReport(db: DbOrTx, limit = 60) {
  const rows = await db
    .select({
      day: earnYieldDays.day,
      productId: earnYieldDays.productId,
      orders: sql<number>`count(*)::int`,
      amount: sql<string>`sum(${earnYieldDays.amount})`,
    })
    .from(earnYieldDays)
    .groupBy(earnYieldDays.day, earnYieldDays.productId)
    .orderBy(desc(earnYieldDays.day), asc(earnYieldDays.productId))
    .limit(limit);
  return rows.map((r) => ({ ...r, amount: new MoneyDecimal(r.amount).toFixed() }));
}
