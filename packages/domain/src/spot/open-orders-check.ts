import { and, eq, inArray } from "drizzle-orm";
import { addOpenOrdersCheck } from "../markets/index.ts";
import { spotOrders } from "./spot.table.ts";

// The catalogue refuses to change a market's tick or lot size under resting spot orders: they are held
// in whole ticks and lots of the grid they were placed on.
addOpenOrdersCheck(async (tx, symbol) => {
  const rows = await tx
    .select({ id: spotOrders.id })
    .from(spotOrders)
    .where(and(eq(spotOrders.symbol, symbol), inArray(spotOrders.status, ["pending", "open", "partial"])))
    .limit(1);
  return rows.length > 0;
});
