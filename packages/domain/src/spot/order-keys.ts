import { sql } from "drizzle-orm";
import type { DbOrTx } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { selectOrders } from "./order-rows.ts";
import type { SpotOrderRow } from "./order-view.ts";

/** What the intake needs of an order to recognise it resent: its user, client key and request hash. */
export interface KeyedOrder {
  userId: number;
  clientKey?: string | null;
  requestHash?: string | null;
}

const keyOf = (o: KeyedOrder) => (o.clientKey ? `${o.userId}:${o.clientKey}` : null);

/** The first order's answer for a resend: that order, or a refusal when the request differs. */
export function answerFor(
  order: Pick<KeyedOrder, "requestHash">,
  first: SpotOrderRow | AppError,
): SpotOrderRow | AppError {
  if (first instanceof AppError || first.requestHash === (order.requestHash ?? null)) {
    return first;
  }
  return new AppError("IDEMPOTENCY_KEY_REUSED", {}, "idempotency_key");
}

/** A PostgreSQL array literal of `values`, each quoted (a key may hold commas, quotes or braces). */
export const textArray = (values: string[]) =>
  `{${values.map((v) => `"${v.replace(/[\\"]/g, (c) => `\\${c}`)}"`).join(",")}}`;

/**
 * The recorded orders carrying the client keys of `orders`, by "user:key": one probe of the unique
 * (user, key) index per pair (a join with the batch as a set is planned as a scan of every order).
 */
export async function recordedByKey(db: DbOrTx, orders: KeyedOrder[]): Promise<Map<string, SpotOrderRow>> {
  const keyed = orders.filter((o) => o.clientKey);
  if (keyed.length === 0) {
    return new Map();
  }
  const rows = await selectOrders(
    db,
    sql`from unnest(${`{${keyed.map((o) => o.userId).join(",")}}`}::bigint[], ${textArray(keyed.map((o) => o.clientKey as string))}::text[])
      as k(k_user, k_key)
    join spot_orders o on o.user_id = k.k_user and o.client_key = k.k_key
    order by o.id`,
  );
  return new Map(rows.map((r) => [`${r.userId}:${r.clientKey}`, r]));
}

/**
 * Orders of a batch repeating the client key of an order earlier in it, each mapped to that earlier
 * order's index: they answer it, and are neither counted, recorded nor held.
 */
export function repeatsInBatch(orders: KeyedOrder[]): Map<number, number> {
  const sameAs = new Map<number, number>();
  const firstInBatch = new Map<string, number>();
  orders.forEach((order, i) => {
    const key = keyOf(order);
    if (key === null) {
      return;
    }
    const earlier = firstInBatch.get(key);
    if (earlier !== undefined) {
      sameAs.set(i, earlier);
    } else {
      firstInBatch.set(key, i);
    }
  });
  return sameAs;
}

export { keyOf };
