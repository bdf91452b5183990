import pg from "pg";
import { runMigrations } from "../db/migrate.ts";
import { adminUrl, databaseUrl, TEMPLATE_DB } from "./databases.ts";

/** Builds the migrated template database once per test run; test files clone it. */
export default async function setup(): Promise<() => Promise<void>> {
  const client = new pg.Client({ connectionString: adminUrl() });
  await client.connect();
  await client.query(`drop database if exists "${TEMPLATE_DB}" with (force)`);
  await client.end();
  await runMigrations(databaseUrl(TEMPLATE_DB));
  return async () => {};
}
