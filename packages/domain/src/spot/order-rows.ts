import { getTableColumns, type SQL, sql } from "drizzle-orm";
import { type DbOrTx, executePrepared } from "../db/client.ts";
import type { SpotOrderRow } from "./order-view.ts";
import { spotOrders } from "./spot.table.ts";

/*
 * The columns of spot_orders under their row names, read without the query builder: on the order
 * path its SQL and its mapping of each row cost more CPU than the work. Timestamps become Dates, as
 * the builder gives them.
 */
const ORDER_COLUMNS = Object.entries(getTableColumns(spotOrders));
// The table names its columns by key; the database has them in snake_case (the client's casing).
const columnName = (key: string, column: { name: string; keyAsName: boolean }) =>
  column.keyAsName ? key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`) : column.name;
const ORDER_SELECT = sql.raw(
  ORDER_COLUMNS.map(([key, column]) => `"${columnName(key, column)}" as "${key}"`).join(", "),
);
const ORDER_DATES = ORDER_COLUMNS.filter(([, column]) => column.dataType === "date").map(([key]) => key);

/** Runs `select <every order column> <rest>` and gives the rows as the query builder would. */
export async function selectOrders(db: DbOrTx, rest: SQL): Promise<SpotOrderRow[]> {
  const rows = await executePrepared<Record<string, unknown>>(db, sql`select ${ORDER_SELECT} ${rest}`);
  for (const row of rows.rows) {
    for (const key of ORDER_DATES) {
      if (row[key] !== null && !(row[key] instanceof Date)) {
        row[key] = new Date(row[key] as string);
      }
    }
  }
  return rows.rows as SpotOrderRow[];
}

/** The orders of `ids`, in id order. */
export function ordersById(db: DbOrTx, ids: number[]): Promise<SpotOrderRow[]> {
  return selectOrders(
    db,
    sql`from spot_orders where id = any(${`{${ids.join(",")}}`}::bigint[]) order by id`,
  );
}
