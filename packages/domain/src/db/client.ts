import { createHash } from "node:crypto";
import type { SQL } from "drizzle-orm";
import { drizzle, type NodePgDatabase } from "drizzle-orm/node-postgres";
import pg from "pg";
export type Db = NodePgDatabase;
/** A transaction handle; services take `Db | Tx` so callers can compose them in one transaction. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
export type DbOrTx = Db | Tx;

// NUMERIC arrives as a string (pg's default) so money never passes through a JS number.
// INT8 (bigint ids, counters) fits a JS number for our ranges.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

export function createDb(
  url: string,
  options: { max?: number; onConnectionError?: (error: Error) => void } = {},
) {
  const pool = new pg.Pool({ connectionString: url, max: options.max ?? 10 });
  const told =
    options.onConnectionError ??
    ((error: Error) => console.error("database connection ended:", error.message));
  // An idle connection the server ends (a restart, an operator terminating backends) is dropped from
  // the pool, which opens a new one when needed. Without a listener the error would end the process.
  pool.on("error", told);
  // The pool listens only to idle connections: one in use (inside a transaction, between two of its
  // statements) that the server ends would emit its error to nobody and end the process. Its
  // transaction fails on its next statement and the pool drops it when it is released.
  const inUse = new WeakSet<object>();
  pool.on("acquire", (client) => inUse.add(client));
  pool.on("release", (_error, client) => inUse.delete(client));
  pool.on("connect", (client) => {
    client.on("error", (error) => {
      if (inUse.has(client)) {
        told(error);
      }
    });
  });
  // No relational schema: services query tables through the query builder, so the client needs to
  // know no module's tables (db/schema.ts lists them for drizzle-kit only).
  const db = drizzle(pool, { casing: "snake_case" });
  trackCommits(db, db, null);
  return { db, pool, close: () => pool.end() };
}

/** Per open transaction (or savepoint): the database handle it belongs to and its after-commit hooks. */
const openTransactions = new WeakMap<object, { root: Db; hooks: AfterCommit[] }>();
export type AfterCommit = (db: Db) => void;

/**
 * Makes every transaction of `handle` (and its savepoints) run the hooks registered with `afterCommit`
 * once it has committed: a savepoint's hooks join its parent's when it is released and are dropped
 * when it rolls back, so only the outermost commit runs them.
 */
function trackCommits(handle: DbOrTx, root: Db, parent: AfterCommit[] | null): void {
  const begin = handle.transaction.bind(handle) as Db["transaction"];
  const transaction: Db["transaction"] = async (run, config) => {
    const hooks: AfterCommit[] = [];
    const result = await begin(async (tx) => {
      openTransactions.set(tx, { root, hooks });
      trackCommits(tx, root, hooks);
      return run(tx);
    }, config);
    if (parent) {
      parent.push(...hooks);
    } else {
      for (const hook of hooks) {
        try {
          hook(root);
        } catch (error) {
          console.error("after-commit hook:", error);
        }
      }
    }
    return result;
  };
  (handle as { transaction: Db["transaction"] }).transaction = transaction;
}

/**
 * Runs `hook` once what `db` wrote is committed: at the end of its transaction, never if it rolls
 * back; at once outside a transaction (each statement commits on its own). For side effects outside
 * the database, such as live notifications.
 */
export function afterCommit(db: DbOrTx, hook: AfterCommit): void {
  const open = openTransactions.get(db);
  if (open) {
    open.hooks.push(hook);
  } else {
    hook(db as Db);
  }
}

/**
 * Something built once per database handle (a cache, a prepared query, a batching writer), kept as
 * long as the handle lives. Keyed by the handle, so tests with a database each never share it.
 */
export function perHandle<T>(create: (db: DbOrTx) => T): (db: DbOrTx) => T {
  const made = new WeakMap<DbOrTx, T>();
  return (db) => {
    let value = made.get(db);
    if (value === undefined) {
      value = create(db);
      made.set(db, value);
    }
    return value;
  };
}

/** Statement names by SQL text: the same text always gets the same name. */
const statementNames = new Map<string, string>();

/**
 * `db.execute` as a named prepared statement: each connection parses the text once and, after a few
 * runs, reuses one plan instead of planning every call. For the large fixed-text statements of the
 * hot paths (a batch passed as one JSON parameter), whose planning costs the server about as much
 * as running them. Only for statements whose text does not vary from call to call: each distinct
 * text is a statement kept on every connection.
 */
export async function executePrepared<T extends Record<string, unknown>>(
  db: DbOrTx,
  query: SQL,
): Promise<pg.QueryResult<T>> {
  // Through drizzle's own session, as `execute` does, with a statement name added.
  const inner = db as unknown as {
    dialect: { sqlToQuery(query: SQL): { sql: string; params: unknown[] } };
    session: {
      prepareQuery(
        query: { sql: string; params: unknown[] },
        fields: undefined,
        name: string,
        arrayMode: boolean,
      ): { execute(): Promise<pg.QueryResult<T>> };
    };
  };
  const built = inner.dialect.sqlToQuery(query);
  let name = statementNames.get(built.sql);
  if (name === undefined) {
    name = `s_${createHash("sha1").update(built.sql).digest("hex").slice(0, 20)}`;
    statementNames.set(built.sql, name);
  }
  return inner.session.prepareQuery(built, undefined, name, false).execute();
}
export { isDatabaseUnavailable } from "./unavailable.ts";
