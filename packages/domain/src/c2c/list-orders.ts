import type { TC2cOrderListRequest } from "@northstar/shared/contracts/c2c";
import type { C2cOrderStatus } from "@northstar/shared/state-machines";
import { and, count, desc, eq, inArray, type SQL } from "drizzle-orm";
import type { DbOrTx } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { c2cMerchants, c2cOrders } from "./c2c.table.ts";
import { orderAdminView, orderView } from "./order-view.ts";

const OPEN: C2cOrderStatus[] = ["unmatched", "matched", "paid"];
const ENDED: C2cOrderStatus[] = ["completed", "expired", "rejected"];

/** One of the user's own orders; another user's id is not found. */
export async function getC2cOrder(db: DbOrTx, userId: number, orderId: number) {
  const [row] = await db
    .select({ o: c2cOrders, m: c2cMerchants })
    .from(c2cOrders)
    .innerJoin(c2cMerchants, eq(c2cMerchants.id, c2cOrders.merchantId))
    .where(and(eq(c2cOrders.id, orderId), eq(c2cOrders.userId, userId)));
  if (!row) {
    throw new AppError("C2C_ORDER_NOT_FOUND", {}, "order_id");
  }
  return orderView(row.o, row.m);
}

async function page(db: DbOrTx, where: SQL | undefined, pageNo: number, pageSize: number) {
  const [rows, totals] = await Promise.all([
    db
      .select({ o: c2cOrders, m: c2cMerchants })
      .from(c2cOrders)
      .innerJoin(c2cMerchants, eq(c2cMerchants.id, c2cOrders.merchantId))
      .where(where)
      .orderBy(desc(c2cOrders.createdAt), desc(c2cOrders.id))
      .limit(pageSize)
      .offset((pageNo - 1) * pageSize),
    db.select({ n: count() }).from(c2cOrders).where(where),
  ]);
  return { total: totals[0]?.n ?? 0, rows };
}

/** The user's orders, newest first: open ones, ended ones, or all. */
export async function listC2cOrders(db: DbOrTx, userId: number, input: TC2cOrderListRequest) {
  const scope =
    input.scope === "open"
      ? inArray(c2cOrders.status, OPEN)
      : input.scope === "history"
        ? inArray(c2cOrders.status, ENDED)
        : undefined;
  const { total, rows } = await page(
    db,
    and(eq(c2cOrders.userId, userId), scope),
    input.page,
    input.page_size,
  );
  return { total, list: rows.map((r) => orderView(r.o, r.m)) };
}

/** Orders for the back office, newest first, optionally of one status. */
export async function listC2cOrdersAdmin(
  db: DbOrTx,
  input: { status?: C2cOrderStatus; page: number; pageSize: number },
) {
  const where = input.status ? eq(c2cOrders.status, input.status) : undefined;
  const { total, rows } = await page(db, where, input.page, input.pageSize);
  return { total, list: rows.map((r) => orderAdminView(r.o, r.m)) };
}
