import type {
  TContractCloseView,
  TContractListRequest,
  TContractPositionView,
} from "@northstar/shared/contracts/contracts";
import { and, asc, count, desc, eq, inArray } from "drizzle-orm";
import type { DbOrTx } from "../db/client.ts";
import { AppError } from "../errors.ts";
import type { User } from "../identity/index.ts";
import { bookOf } from "../ledger/index.ts";
import { contractCloses, contractPositions } from "./contracts.table.ts";
import { toCloseView, toPositionView } from "./position-view.ts";

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
      .select()
      .from(contractPositions)
      .where(where)
      .orderBy(desc(contractPositions.id))
      .limit(input.page_size)
      .offset((input.page - 1) * input.page_size),
    db.select({ n: count() }).from(contractPositions).where(where),
  ]);
  return { items: rows.map(toPositionView), total: Number(total?.n ?? 0) };
}

/** One of the user's positions with its closes (oldest first); another user's id is not found. */
export async function getContractPosition(
  db: DbOrTx,
  user: User,
  id: number,
): Promise<{ position: TContractPositionView; closes: TContractCloseView[] }> {
  const [row] = await db
    .select()
    .from(contractPositions)
    .where(
      and(
        eq(contractPositions.id, id),
        eq(contractPositions.userId, user.id),
        eq(contractPositions.book, bookOf(user)),
      ),
    );
  if (!row) {
    throw new AppError("CONTRACT_NOT_FOUND", {}, "id");
  }
  const closes = await db
    .select()
    .from(contractCloses)
    .where(eq(contractCloses.positionId, id))
    .orderBy(asc(contractCloses.id));
  return { position: toPositionView(row), closes: closes.map(toCloseView) };
}
