import type { TOptionOrderView } from "@northstar/shared/contracts/options";
import { and, count, desc, eq, ne } from "drizzle-orm";
import type { DbOrTx } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { optionOrders } from "./options.table.ts";
import { toOptionView } from "./order-view.ts";

/** A user's options orders: `open` (newest first) or `history`, the delivery record (newest first). */
export async function listOptionOrders(
  db: DbOrTx,
  userId: number,
  query: { scope: "open" | "history"; page: number; pageSize: number },
): Promise<{ items: TOptionOrderView[]; total: number }> {
  const where = and(
    eq(optionOrders.userId, userId),
    query.scope === "open" ? eq(optionOrders.status, "open") : ne(optionOrders.status, "open"),
  );
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(optionOrders)
      .where(where)
      .orderBy(desc(optionOrders.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    db.select({ n: count() }).from(optionOrders).where(where),
  ]);
  return { items: rows.map(toOptionView), total: total?.n ?? 0 };
}

/** One of the user's own orders; another user's id is not found. */
export async function getOptionOrder(db: DbOrTx, userId: number, id: number): Promise<TOptionOrderView> {
  const [row] = await db
    .select()
    .from(optionOrders)
    .where(and(eq(optionOrders.id, id), eq(optionOrders.userId, userId)));
  if (!row) {
    throw new AppError("ORDER_NOT_FOUND", {}, "id");
  }
  return toOptionView(row);
}
