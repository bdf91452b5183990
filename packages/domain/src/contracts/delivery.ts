import { and, asc, eq, lte } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { applyClose } from "./apply-close.ts";
import { contractPositions } from "./contracts.table.ts";
import { firstContractTickAtOrAfter } from "./ticks.ts";

export type DeliveryResult = "delivered" | "already" | "not_due" | "waiting";

/**
 * Settles one expired delivery position at the first feed price recorded at or after its expiry
 * (the tick is kept): all its lots close as a `delivery`. The row is locked and its state
 * compared-and-set, so a job delivered twice settles once.
 */
export async function deliverContract(db: Db, positionId: number, now = new Date()): Promise<DeliveryResult> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(contractPositions)
      .where(eq(contractPositions.id, positionId))
      .for("update");
    if (row?.status !== "holding" || !row.expiresAt) {
      return "already";
    }
    if (row.expiresAt.getTime() > now.getTime()) {
      return "not_due";
    }
    const tick = await firstContractTickAtOrAfter(tx, row.symbol, row.expiresAt);
    if (!tick) {
      return "waiting";
    }
    await applyClose(tx, row, {
      closeLots: row.lots,
      price: tick.price,
      tickId: tick.id,
      reason: "delivery",
      by: "system",
      at: tick.time,
    });
    return "delivered";
  });
}

/** One run of the delivery job: every holding delivery position expired by `now`, oldest expiry first. */
export async function deliverDueContracts(
  db: Db,
  now = new Date(),
): Promise<{ delivered: number; waiting: number }> {
  const due = await db
    .select({ id: contractPositions.id })
    .from(contractPositions)
    .where(and(eq(contractPositions.status, "holding"), lte(contractPositions.expiresAt, now)))
    .orderBy(asc(contractPositions.expiresAt), asc(contractPositions.id))
    .limit(5000);
  let delivered = 0;
  let waiting = 0;
  for (const { id } of due) {
    const result = await deliverContract(db, id, now);
    if (result === "delivered") {
      delivered++;
    } else if (result === "waiting") {
      waiting++;
    }
  }
  return { delivered, waiting };
}
