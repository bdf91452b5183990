import { type Actor, findTransition, type StateMachine } from "@northstar/shared/state-machines";
import { and, eq, type SQL, sql } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import { type DbOrTx, executePrepared } from "../db/client.ts";
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

/** One row of a batched transition: `values` go to the named columns in the same statement. */
export interface BatchTransition<S extends string> {
  id: number;
  from: S;
  to: S;
  values?: Record<string, string | number | boolean | null>;
}

/**
 * Many transitions of one table in one statement, for a busy writer (the spot matcher settling a
 * batch). Each row is checked against the machine like `transition` (a row whose state does not
 * change only updates its columns) and compare-and-set on its old status. `columns` names the extra
 * columns and their SQL types. Returns the ids that were updated; callers treat a missing id as a
 * lost race.
 */
export async function transitionMany<S extends string>(
  db: DbOrTx,
  params: {
    machine: StateMachine<S>;
    table: string;
    by: Actor;
    columns: Record<string, "numeric" | "text" | "boolean" | "bigint" | "integer" | "timestamptz">;
    rows: BatchTransition<S>[];
    /** False for a table without an `updated_at` column (default true: it is set to now()). */
    updatedAt?: boolean;
  },
): Promise<Set<number>> {
  if (params.rows.length === 0) {
    return new Set();
  }
  for (const row of params.rows) {
    if (row.from !== row.to && !findTransition(params.machine, row.from, row.to, params.by)) {
      throw new AppError("FORBIDDEN");
    }
  }
  const names = Object.keys(params.columns);
  for (const name of [params.table, ...names]) {
    if (!/^[a-z_][a-z0-9_]*$/.test(name)) {
      throw new Error(`transitionMany: bad identifier ${name}`);
    }
  }
  const json = JSON.stringify(
    params.rows.map((r) => ({ ...r.values, id: r.id, from_status: r.from, to_status: r.to })),
  );
  const assignments = names.map((n) => `${n} = v.${n}`).join(", ");
  // The ids again as a list: the primary key finds the rows whatever the planner thinks of the
  // table's size (with the join alone, a plan made while the table was small scans all of it).
  const types = names.map((n) => `${n} ${params.columns[n]}`).join(", ");
  const updated = await executePrepared<{ id: number }>(
    db,
    sql`
    update ${sql.raw(params.table)} t
    set status = v.to_status${sql.raw(params.updatedAt === false ? "" : ", updated_at = now()")}${sql.raw(assignments ? `, ${assignments}` : "")}
    from jsonb_to_recordset(${json}::jsonb)
      as v(id bigint, from_status text, to_status text${sql.raw(types ? `, ${types}` : "")})
    where t.id = v.id and t.status = v.from_status
      and t.id = any(${`{${params.rows.map((r) => r.id).join(",")}}`}::bigint[])
    returning t.id`,
  );
  return new Set(updated.rows.map((r) => Number(r.id)));
}
