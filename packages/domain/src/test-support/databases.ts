import { createHash, randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { MIGRATIONS_DIR } from "../db/migrate.ts";

/** Tests read DATABASE_URL for the server to use (the database name in it is ignored). */
const base = () => process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

/** The migrated template, named by a hash of the committed migrations (see global-setup.ts). */
export const TEMPLATE_DB = `northstar_test_template_${migrationsHash()}`;

function migrationsHash(): string {
  const hash = createHash("sha256");
  for (const file of readdirSync(MIGRATIONS_DIR).sort()) {
    if (file.endsWith(".sql")) {
      hash.update(file).update(readFileSync(join(MIGRATIONS_DIR, file)));
    }
  }
  return hash.digest("hex").slice(0, 12);
}

export function databaseUrl(name: string): string {
  const url = new URL(base());
  url.pathname = `/${name}`;
  return url.toString();
}

export const adminUrl = () => databaseUrl("postgres");

/**
 * Clones the migrated template into a new database for one test file. CREATE DATABASE … TEMPLATE
 * copies files, taking tens of milliseconds, far faster than migrating each time.
 */
export async function createTestDatabase(): Promise<{ name: string; url: string; drop(): Promise<void> }> {
  const name = `northstar_test_${randomBytes(6).toString("hex")}`;
  const client = new pg.Client({ connectionString: adminUrl() });
  await client.connect();
  try {
    // Two clones of one template at the same instant can collide on the template's lock; retry.
    for (let attempt = 0; ; attempt++) {
      try {
        await client.query(`create database "${name}" template "${TEMPLATE_DB}"`);
        break;
      } catch (error) {
        if (attempt >= 20 || !String((error as Error).message).includes("being accessed by other users")) {
          throw error;
        }
        await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
      }
    }
  } finally {
    await client.end();
  }
  return {
    name,
    url: databaseUrl(name),
    async drop() {
      const c = new pg.Client({ connectionString: adminUrl() });
      await c.connect();
      // Connections a closed pool is still ending get a moment to go, so the forced drop below only
      // ends ones that were really left open.
      for (let i = 0; i < 40; i++) {
        const open = await c.query("select count(*)::int as n from pg_stat_activity where datname = $1", [
          name,
        ]);
        if (open.rows[0]?.n === 0) {
          break;
        }
        await new Promise((r) => setTimeout(r, 50));
      }
      await c.query(`drop database if exists "${name}" with (force)`);
      await c.end();
    },
  };
}
