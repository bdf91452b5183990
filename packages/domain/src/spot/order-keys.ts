import { and, isNotNull, sql } from "drizzle-orm";
import type { DbOrTx } from "../db/client.ts";
import { AppError } from "../errors.ts";
import type { SpotOrderRow } from "./order-view.ts";
import { spotOrders } from "./spot.table.ts";

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

/** The recorded orders carrying the client keys of `orders`, by "user:key". */
export async function recordedByKey(db: DbOrTx, orders: KeyedOrder[]): Promise<Map<string, SpotOrderRow>> {
  const keys = orders.filter((o) => o.clientKey).map((o) => ({ user_id: o.userId, client_key: o.clientKey }));
  if (keys.length === 0) {
    return new Map();
  }
  const rows = await db
    .select()
    .from(spotOrders)
    .where(
      and(
        isNotNull(spotOrders.clientKey),
        sql`(${spotOrders.userId}, ${spotOrders.clientKey}) in (
          select user_id, client_key from jsonb_to_recordset(${JSON.stringify(keys)}::jsonb)
            as v(user_id bigint, client_key text))`,
      ),
    )
    .orderBy(spotOrders.id);
  return new Map(rows.map((r) => [`${r.userId}:${r.clientKey}`, r]));
}

/**
 * Orders of a batch that resend an order: one already recorded (answered with that order) or one
 * earlier in the same batch (`sameAs` its index). Neither is counted, recorded or held again.
 */
export async function findResent(db: DbOrTx, orders: KeyedOrder[]) {
  const recorded = await recordedByKey(db, orders);
  const answered = new Map<number, SpotOrderRow | AppError>();
  const sameAs = new Map<number, number>();
  const firstInBatch = new Map<string, number>();
  orders.forEach((order, i) => {
    const key = keyOf(order);
    if (key === null) {
      return;
    }
    const row = recorded.get(key);
    const earlier = firstInBatch.get(key);
    if (row) {
      answered.set(i, answerFor(order, row));
    } else if (earlier !== undefined) {
      sameAs.set(i, earlier);
    } else {
      firstInBatch.set(key, i);
    }
  });
  return { answered, sameAs };
}

export { keyOf };
