import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";

/** This checkout's root. */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

/** The server's maintenance database, from which benchmark databases are dropped and created. */
const ADMIN_DB = process.env.BENCH_ADMIN_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

/** Drops and creates the database of `url`, so every run starts empty and migrates cleanly. */
export async function recreateDatabase(url: string): Promise<void> {
  const client = new pg.Client(ADMIN_DB);
  await client.connect();
  const name = new URL(url).pathname.slice(1);
  await client.query(`drop database if exists "${name}" with (force)`);
  await client.query(`create database "${name}"`);
  await client.end();
}

/**
 * An empty database at `url`, migrated and seeded by the platform's setup command of the checkout at
 * `tree` (this one by default), as a new installation starts.
 */
export async function freshPlatformDatabase(url: string, tree: string = ROOT): Promise<void> {
  await recreateDatabase(url);
  const setup = spawnSync(process.execPath, ["--import", "tsx", "apps/api/src/cli/setup.ts"], {
    cwd: tree,
    env: { ...process.env, DATABASE_URL: url },
    encoding: "utf8",
  });
  if (setup.status !== 0) {
    throw new Error(`setup failed: ${setup.stderr}`);
  }
}
