import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { runMigrations } from "../db/migrate.ts";
import { adminUrl, databaseUrl, TEMPLATE_DB } from "./databases.ts";

/**
 * Builds the migrated template database once; test files clone it. The template's name carries a
 * hash of the migrations, so a run never drops a template another run (on the same server) is
 * cloning from, and a changed migration gets a template of its own. Building happens under an
 * advisory lock, into a scratch name renamed when complete, so a half-migrated template is never seen.
 * Older templates are left alone: another run may still be cloning one (each is a few MB).
 */
export default async function setup(): Promise<() => Promise<void>> {
  // The processes the tests start (workers, APIs, the operator CLI) run compiled, as in production
  // (see compiledEntry); this leaves output already made from the same sources alone.
  const built = spawnSync(process.execPath, ["scripts/build-server.mjs"], {
    cwd: fileURLToPath(new URL("../../../..", import.meta.url)),
    encoding: "utf8",
  });
  if (built.status !== 0) {
    throw new Error(`compiling the server failed: ${built.stderr}`);
  }
  const client = new pg.Client({ connectionString: adminUrl() });
  await client.connect();
  try {
    await client.query("select pg_advisory_lock(hashtext('northstar test template'))");
    const found = await client.query("select 1 from pg_database where datname = $1", [TEMPLATE_DB]);
    if (found.rowCount === 0) {
      const scratch = `${TEMPLATE_DB}_building`;
      await client.query(`drop database if exists "${scratch}" with (force)`);
      await runMigrations(databaseUrl(scratch));
      await client.query(`alter database "${scratch}" rename to "${TEMPLATE_DB}"`);
    }
  } finally {
    await client.query("select pg_advisory_unlock(hashtext('northstar test template'))");
    await client.end();
  }
  return async () => {};
}
