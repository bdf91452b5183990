import type {
  TContractCloseView,
  TContractListRequest,
  TContractPositionView,
} from "@northstar/shared/contracts/contracts";
import type { TRecordedTick } from "@northstar/shared/contracts/markets";
import { and, asc, count, desc, eq, inArray } from "drizzle-orm";
import type { DbOrTx } from "../db/client.ts";
import { AppError } from "../errors.ts";
import type { User } from "../identity/index.ts";
import { bookOf } from "../ledger/index.ts";
import { contractCloses, contractPositions, contractTicks } from "./contracts.table.ts";
import { toCloseView, toPositionView } from "./position-view.ts";
import { contractTickById, contractTicksAround } from "./ticks.ts";

const closeTick = {
  id: contractTicks.id,
  price: contractTicks.price,
  time: contractTicks.time,
  source: contractTicks.source,
  sourceTime: contractTicks.sourceTime,
};

const SCOPES = {
  holding: ["holding"],
  pending: ["pending"],
  history: ["closed", "liquidated", "cancelled"],
} as const;

/** The user's positions of one scope (holding, pending, history), newest first. */
export async function listContractPositions(
  db: DbOrTx,
  user: User,
  input: TContractListRequest,
): Promise<{ items: TContractPositionView[]; total: number }> {
  const where = and(
    eq(contractPositions.userId, user.id),
    eq(contractPositions.book, bookOf(user)),
    inArray(contractPositions.status, [...SCOPES[input.scope]]),
  );
  const [rows, [total]] = await Promise.all([
    db
      .select({ position: contractPositions, tick: closeTick })
      .from(contractPositions)
      .leftJoin(contractTicks, eq(contractTicks.id, contractPositions.closeTickId))
      .where(where)
      .orderBy(desc(contractPositions.id))
      .limit(input.page_size)
      .offset((input.page - 1) * input.page_size),
    db.select({ n: count() }).from(contractPositions).where(where),
  ]);
  return { items: rows.map((r) => toPositionView(r.position, r.tick)), total: Number(total?.n ?? 0) };
}

/** One of the user's positions with its closes (oldest first); another user's id is not found. */
export async function getContractPosition(
  db: DbOrTx,
  user: User,
  id: number,
): Promise<{ position: TContractPositionView; closes: TContractCloseView[] }> {
  const [row] = await db
    .select({ position: contractPositions, tick: closeTick })
    .from(contractPositions)
    .leftJoin(contractTicks, eq(contractTicks.id, contractPositions.closeTickId))
    .where(ownPosition(user, id));
  if (!row) {
    throw new AppError("CONTRACT_NOT_FOUND", {}, "id");
  }
  const closes = await db
    .select()
    .from(contractCloses)
    .where(eq(contractCloses.positionId, id))
    .orderBy(asc(contractCloses.id));
  return { position: toPositionView(row.position, row.tick), closes: closes.map(toCloseView) };
}

const ownPosition = (user: User, id: number) =>
  and(
    eq(contractPositions.id, id),
    eq(contractPositions.userId, user.id),
    eq(contractPositions.book, bookOf(user)),
  );

/**
 * The recorded ticks within a minute either side of the tick one of the user's own positions closed
 * at (a close, a TP/SL, a liquidation, a delivery), or opened or filled at while it has not closed,
 * with their provenance. Another user's position id is not found.
 */
export async function contractPositionTicks(
  db: DbOrTx,
  user: User,
  id: number,
): Promise<{ position_id: number; tick_id: number | null; ticks: TRecordedTick[] }> {
  const [row] = await db
    .select({
      symbol: contractPositions.symbol,
      closeTickId: contractPositions.closeTickId,
      openTickId: contractPositions.openTickId,
      createdAt: contractPositions.createdAt,
    })
    .from(contractPositions)
    .where(ownPosition(user, id));
  if (!row) {
    throw new AppError("CONTRACT_NOT_FOUND", {}, "id");
  }
  const tickId = row.closeTickId ?? row.openTickId;
  const tick = tickId === null ? null : await contractTickById(db, tickId);
  const ticks = await contractTicksAround(db, row.symbol, tick ? new Date(tick.time) : row.createdAt);
  return { position_id: id, tick_id: tickId, ticks };
}
