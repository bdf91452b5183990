import type { TC2cMerchantInput, TC2cStockMove } from "@northstar/shared/contracts/c2c";
import { MoneyDecimal } from "@northstar/shared/money";
import { type C2cMerchantStatus, c2cMerchantMachine } from "@northstar/shared/state-machines";
import { and, asc, eq, sql } from "drizzle-orm";
import { recordAudit } from "../audit/index.ts";
import { assertCurrencyAmount } from "../currencies/index.ts";
import type { Db, DbOrTx } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { postEntry } from "../ledger/index.ts";
import { transition } from "../state/index.ts";
import { c2cMerchants, c2cOrders, c2cStockMoves } from "./c2c.table.ts";

export type Merchant = typeof c2cMerchants.$inferSelect;
const fixed = (v: string) => new MoneyDecimal(v).toFixed();

/** Escrow of a merchant's free stock, and of the stock its matched orders reserve. */
export const escrowAccount = (m: { id: number; coin: string }) =>
  ({ system: `c2c_escrow:${m.id}`, book: "real", currency: m.coin }) as const;
export const reservedAccount = (m: { id: number; coin: string }) =>
  ({ system: `c2c_reserved:${m.id}`, book: "real", currency: m.coin }) as const;
/** The other side of stock an operator funds: coins the merchants hand over off the platform. */
export const supplyAccount = (coin: string) =>
  ({ system: "c2c_supply", book: "real", currency: coin }) as const;

/** What a user sees of a merchant: who to wire to, the price and range, the stock free to sell. */
export function merchantView(m: Merchant) {
  return {
    id: m.id,
    name: m.name,
    coin: m.coin,
    fiat: m.fiat,
    price: fixed(m.price),
    minFiat: fixed(m.minFiat),
    maxFiat: fixed(m.maxFiat),
    stock: fixed(m.stockAvailable),
    status: m.status,
  };
}

/** The back office's view adds the payee details, the reserved stock and the note. */
export function merchantAdminView(m: Merchant) {
  return {
    ...merchantView(m),
    reserved: fixed(m.stockReserved),
    payeeName: m.payeeName,
    bankName: m.bankName,
    bankAccount: m.bankAccount,
    bankBranch: m.bankBranch,
    note: m.note,
    createdAt: m.createdAt,
  };
}

function assertRange(input: TC2cMerchantInput) {
  if (new MoneyDecimal(input.min_fiat).greaterThan(input.max_fiat)) {
    throw new AppError("FIELD_INVALID", {}, "max_fiat");
  }
}

const columns = (input: TC2cMerchantInput) => ({
  name: input.name,
  coin: input.coin,
  fiat: input.fiat,
  price: input.price,
  minFiat: input.min_fiat,
  maxFiat: input.max_fiat,
  payeeName: input.payee_name,
  bankName: input.bank_name,
  bankAccount: input.bank_account,
  bankBranch: input.bank_branch,
  note: input.note,
});

export async function createMerchant(db: DbOrTx, input: TC2cMerchantInput, actor: string) {
  assertRange(input);
  const [row] = await db.insert(c2cMerchants).values(columns(input)).returning();
  if (!row) {
    throw new AppError("REQUEST_ERROR");
  }
  await recordAudit(db, {
    actor,
    action: "c2c.merchant.create",
    subject: String(row.id),
    details: { ...input },
  });
  return merchantAdminView(row);
}

/**
 * Changes a merchant's details and price. The coin is fixed once the merchant holds stock or has
 * any order (its escrow and its orders are in that coin; a merchant for another coin is a new
 * merchant); orders already created keep the price they locked.
 */
export async function updateMerchant(db: Db, id: number, input: TC2cMerchantInput, actor: string) {
  assertRange(input);
  return db.transaction(async (tx) => {
    const [m] = await tx.select().from(c2cMerchants).where(eq(c2cMerchants.id, id)).for("update");
    if (!m) {
      throw new AppError("C2C_MERCHANT_NOT_FOUND", {}, "id");
    }
    if (m.coin !== input.coin) {
      const holding = !new MoneyDecimal(m.stockAvailable).plus(m.stockReserved).isZero();
      // Under the row lock: an order being created locks this row too (orders.ts), so it is either
      // seen here or sees the new coin.
      const [order] = await tx
        .select({ id: c2cOrders.id })
        .from(c2cOrders)
        .where(eq(c2cOrders.merchantId, id))
        .limit(1);
      if (holding || order) {
        throw new AppError("C2C_MERCHANT_COIN_LOCKED", {}, "coin");
      }
    }
    const [row] = await tx
      .update(c2cMerchants)
      .set({ ...columns(input), updatedAt: new Date() })
      .where(eq(c2cMerchants.id, id))
      .returning();
    await recordAudit(tx, {
      actor,
      action: "c2c.merchant.update",
      subject: String(id),
      details: { ...input },
    });
    return merchantAdminView(row as Merchant);
  });
}

/** Pauses (no new orders) or resumes a merchant. */
export async function setMerchantStatus(db: DbOrTx, id: number, to: C2cMerchantStatus, actor: string) {
  const from: C2cMerchantStatus = to === "active" ? "paused" : "active";
  const changed = await transition(db, {
    machine: c2cMerchantMachine,
    table: c2cMerchants,
    id,
    from,
    to,
    by: "operator",
    set: { updatedAt: new Date() },
  });
  if (!changed) {
    throw new AppError("C2C_MERCHANT_NOT_FOUND", {}, "id");
  }
  await recordAudit(db, { actor, action: `c2c.merchant.${to}`, subject: String(id) });
}

/**
 * Moves stock into a merchant's escrow (`fund`) or back out of what is free (`withdraw`): one ledger
 * entry keyed by the recorded move, and the mirror column in the same transaction. Stock reserved by
 * matched orders cannot be withdrawn. (`fundMerchant` also matches the merchant's waiting orders.)
 */
export async function moveMerchantStock(
  db: Db,
  kind: "fund" | "withdraw",
  input: TC2cStockMove,
  actor: string,
) {
  return db.transaction(async (tx) => {
    const [m] = await tx
      .select()
      .from(c2cMerchants)
      .where(eq(c2cMerchants.id, input.merchant_id))
      .for("update");
    if (!m) {
      throw new AppError("C2C_MERCHANT_NOT_FOUND", {}, "merchant_id");
    }
    const amount = new MoneyDecimal(input.amount);
    await assertCurrencyAmount(tx, m.coin, amount, "amount");
    if (kind === "withdraw" && amount.greaterThan(m.stockAvailable)) {
      throw new AppError("C2C_STOCK_INSUFFICIENT", {}, "amount");
    }
    const [move] = await tx
      .insert(c2cStockMoves)
      .values({ merchantId: m.id, kind, amount: amount.toFixed(), actor })
      .returning();
    if (!move) {
      throw new AppError("REQUEST_ERROR");
    }
    const signed = kind === "fund" ? amount : amount.negated();
    await postEntry(tx, {
      idempotencyKey: `c2c:stock:${move.id}`,
      kind: `c2c.stock.${kind}`,
      reference: { type: "c2c_stock_move", id: move.id },
      postings: [
        { account: supplyAccount(m.coin), amount: signed.negated().toFixed() },
        { account: escrowAccount(m), amount: signed.toFixed() },
      ],
    });
    const [row] = await tx
      .update(c2cMerchants)
      .set({
        stockAvailable: sql`${c2cMerchants.stockAvailable} + ${signed.toFixed()}`,
        updatedAt: new Date(),
      })
      .where(eq(c2cMerchants.id, m.id))
      .returning();
    await recordAudit(tx, {
      actor,
      action: `c2c.stock.${kind}`,
      subject: String(m.id),
      details: { amount: amount.toFixed(), moveId: move.id },
    });
    return merchantAdminView(row as Merchant);
  });
}

/** Merchants users may buy from: active ones for a coin (or all), cheapest first. */
export async function listActiveMerchants(db: DbOrTx, coin?: string) {
  const rows = await db
    .select()
    .from(c2cMerchants)
    .where(
      coin
        ? and(eq(c2cMerchants.status, "active"), eq(c2cMerchants.coin, coin))
        : eq(c2cMerchants.status, "active"),
    )
    .orderBy(asc(c2cMerchants.coin), asc(c2cMerchants.price), asc(c2cMerchants.id));
  return rows.map(merchantView);
}

/** Every merchant for the back office, by id. */
export async function listMerchantsAdmin(db: DbOrTx) {
  const rows = await db.select().from(c2cMerchants).orderBy(asc(c2cMerchants.id));
  return rows.map(merchantAdminView);
}
