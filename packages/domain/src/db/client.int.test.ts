import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../test-support/index.ts";
import { createDb } from "./client.ts";

/*
 * A connection the server ends while a transaction holds it (a restart, an operator terminating
 * backends) between two of its statements: the pool does not listen to a connection in use, and an
 * error nobody listens to ends the process. Vitest fails the run on such an uncaught error.
 */
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let admin: pg.Client;

beforeAll(async () => {
  database = await createTestDatabase();
  admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
});
afterAll(async () => {
  await admin?.end();
  await database?.drop();
});

describe("a database connection ended while a transaction holds it", () => {
  it("is told once, fails its transaction, and the pool serves the next query", async () => {
    const told: string[] = [];
    const handle = createDb(database.url, { max: 2, onConnectionError: (error) => told.push(error.message) });
    try {
      let pid = 0;
      let ended = () => {};
      const serverEnded = new Promise<void>((resolve) => {
        ended = resolve;
      });
      const transaction = handle.db.transaction(async (tx) => {
        const row = await tx.execute<{ pid: number }>(sql`select pg_backend_pid() as pid`);
        pid = Number(row.rows[0]?.pid);
        // Between two statements: nothing is being asked of the connection when it ends.
        await serverEnded;
        await tx.execute(sql`select 1`);
      });
      while (pid === 0) {
        await new Promise((resolve) => setImmediate(resolve));
      }
      await admin.query("select pg_terminate_backend($1)", [pid]);
      // The error reaches the listener (and nothing else) before the transaction goes on.
      for (const until = Date.now() + 10_000; told.length === 0 && Date.now() < until; ) {
        await new Promise((resolve) => setImmediate(resolve));
      }
      expect(told).toHaveLength(1);
      expect(told[0]).toMatch(/terminating connection/);
      ended();
      await expect(transaction).rejects.toThrow();
      const next = await handle.db.execute<{ one: number }>(sql`select 1 as one`);
      expect(next.rows[0]?.one).toBe(1);
    } finally {
      await handle.close();
    }
  });
});
