import { type Actor, findTransition, type StateMachine } from "@northstar/shared/state-machines";
import { and, eq, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { DbOrTx } from "../db/client.ts";
import { AppError } from "../errors.ts";

/**
 * The one way a stateful row changes state: the transition must be in the machine's table for this
 * actor, and the update is a compare-and-set (`WHERE id = … AND status = from`), so of two
 * concurrent attempts exactly one wins. Returns false when the row was no longer in `from`.
 */
export async function transition<S extends string>(
  db: DbOrTx,
  params: {
    machine: StateMachine<S>;
    table: PgTable & { id: PgColumn; status: PgColumn };
    id: number;
    from: S;
    to: S;
    by: Actor;
    set?: Record<string, unknown>;
  },
): Promise<boolean> {
  if (!findTransition(params.machine, params.from, params.to, params.by)) {
    throw new AppError("FORBIDDEN");
  }
  const where: SQL | undefined = and(eq(params.table.id, params.id), eq(params.table.status, params.from));
  const updated = await db
    .update(params.table)
    .set({ ...(params.set ?? {}), status: params.to } as never)
    .where(where)
    .returning({ id: params.table.id });
  return updated.length === 1;
}
