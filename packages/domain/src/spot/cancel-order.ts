import type { TSpotOrderView } from "@northstar/shared/contracts/spot";
import { SPOT_OPEN_STATUSES } from "@northstar/shared/state-machines";
import { and, eq, inArray } from "drizzle-orm";
import { AppError } from "../errors.ts";
import type { User } from "../identity/index.ts";
import { sendCommand } from "./commands.ts";
import { toOrderView } from "./order-view.ts";
import type { SpotDeps } from "./place-order.ts";
import { spotOrders } from "./spot.table.ts";

/**
 * Asks the matcher to cancel one of the user's open orders. The command follows the order's own
 * place command in the market's stream, so the matcher applies it in order: a resting order leaves
 * the book and its hold is released; an order that finished meanwhile has nothing to cancel.
 */
export async function cancelOrder(deps: SpotDeps, user: User, id: number): Promise<TSpotOrderView> {
  const [row] = await deps.db
    .select()
    .from(spotOrders)
    .where(
      and(
        eq(spotOrders.id, id),
        eq(spotOrders.userId, user.id),
        inArray(spotOrders.status, [...SPOT_OPEN_STATUSES]),
      ),
    );
  if (!row) {
    const [existing] = await deps.db
      .select({ id: spotOrders.id })
      .from(spotOrders)
      .where(and(eq(spotOrders.id, id), eq(spotOrders.userId, user.id)));
    throw new AppError(existing ? "ORDER_NOT_OPEN" : "ORDER_NOT_FOUND");
  }
  await sendCommand(deps.redis, deps.prefix, row.symbol, { t: "cancel", id: row.id });
  return toOrderView(row);
}
