import pg from "pg";

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
