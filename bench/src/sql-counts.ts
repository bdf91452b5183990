import type { createDb } from "@northstar/domain/db";

type Db = ReturnType<typeof createDb>["db"];

/**
 * What the database did for a stretch of work on one database: rows written per table (from
 * pg_stat_user_tables, which every server keeps) and, where the server loads pg_stat_statements,
 * the statements run. Backends publish their table counts when they go idle, at most once a second,
 * so `stop` waits for that before reading.
 */
export interface SqlCounts {
  /** null when the server does not load pg_stat_statements (shared_preload_libraries). */
  statements: number | null;
  transactions: number;
  rows: { inserted: number; updated: number; hotUpdated: number; deleted: number };
  byTable: Record<string, { inserted: number; updated: number; hotUpdated: number; deleted: number }>;
  /** The most-called statements, their calls and rows, first words only. */
  topStatements: { query: string; calls: number; rows: number; ms: number }[];
}

type TableRow = {
  relname: string;
  ins: string;
  upd: string;
  hot: string;
  del: string;
};

async function tableCounts(db: Db) {
  const rows = await db.execute<TableRow>(`
    select relname, n_tup_ins::text as ins, n_tup_upd::text as upd, n_tup_hot_upd::text as hot,
      n_tup_del::text as del
    from pg_stat_user_tables order by relname`);
  return new Map(rows.rows.map((r) => [r.relname, r]));
}

async function commits(db: Db): Promise<number> {
  const rows = await db.execute<{ n: string }>(
    `select xact_commit::text as n from pg_stat_database where datname = current_database()`,
  );
  return Number(rows.rows[0]?.n ?? 0);
}

async function hasStatements(db: Db): Promise<boolean> {
  try {
    await db.execute(`create extension if not exists pg_stat_statements`);
    await db.execute(`select 1 from pg_stat_statements limit 1`);
    return true;
  } catch {
    return false;
  }
}

const settle = () => new Promise((r) => setTimeout(r, 1200));

export async function startSqlCounts(db: Db): Promise<() => Promise<SqlCounts>> {
  const statements = await hasStatements(db);
  await settle();
  if (statements) {
    await db.execute(`select pg_stat_statements_reset(0, (select oid from pg_database
      where datname = current_database()), 0)`);
  }
  const tablesBefore = await tableCounts(db);
  const commitsBefore = await commits(db);
  return async () => {
    await settle();
    const tablesAfter = await tableCounts(db);
    const byTable: SqlCounts["byTable"] = {};
    const rows = { inserted: 0, updated: 0, hotUpdated: 0, deleted: 0 };
    for (const [name, after] of tablesAfter) {
      const before = tablesBefore.get(name);
      const d = {
        inserted: Number(after.ins) - Number(before?.ins ?? 0),
        updated: Number(after.upd) - Number(before?.upd ?? 0),
        hotUpdated: Number(after.hot) - Number(before?.hot ?? 0),
        deleted: Number(after.del) - Number(before?.del ?? 0),
      };
      if (d.inserted + d.updated + d.deleted > 0) {
        byTable[name] = d;
        rows.inserted += d.inserted;
        rows.updated += d.updated;
        rows.hotUpdated += d.hotUpdated;
        rows.deleted += d.deleted;
      }
    }
    let total: number | null = null;
    let topStatements: SqlCounts["topStatements"] = [];
    if (statements) {
      const found = await db.execute<{ query: string; calls: string; rows: string; ms: string }>(`
        select query, calls::text, rows::text, total_exec_time::text as ms from pg_stat_statements
        where dbid = (select oid from pg_database where datname = current_database())
        order by total_exec_time desc, query`);
      // This reader's own statements are not the work's.
      const work = found.rows.filter(
        (r) => !/pg_stat_|pg_database|pg_stat_activity|count\(\*\)::int as n from spot_orders/.test(r.query),
      );
      total = work.reduce((a, r) => a + Number(r.calls), 0);
      topStatements = work.slice(0, 25).map((r) => ({
        query: r.query.replace(/\s+/g, " ").slice(0, 120),
        calls: Number(r.calls),
        rows: Number(r.rows),
        ms: Math.round(Number(r.ms)),
      }));
    }
    return {
      statements: total,
      transactions: (await commits(db)) - commitsBefore,
      rows,
      byTable,
      topStatements,
    };
  };
}

/** Counts per order, to three decimals. */
export function perOrder(counts: SqlCounts, orders: number) {
  const per = (n: number) => Number((n / Math.max(1, orders)).toFixed(3));
  return {
    statements: counts.statements === null ? null : per(counts.statements),
    transactions: per(counts.transactions),
    rowsInserted: per(counts.rows.inserted),
    rowsUpdated: per(counts.rows.updated),
    rowsUpdatedHot: per(counts.rows.hotUpdated),
    rowsDeleted: per(counts.rows.deleted),
    byTable: Object.fromEntries(
      Object.entries(counts.byTable).map(([t, d]) => [
        t,
        { inserted: per(d.inserted), updated: per(d.updated), deleted: per(d.deleted) },
      ]),
    ),
  };
}
