import { createDb } from "@northstar/domain/db";
import { runMigrations } from "@northstar/domain/migrate";
import { seedDatabase } from "@northstar/domain/seed";
import { env as loadEnv } from "../env.ts";

/**
 * Prepares the database for `pnpm start`: creates it if missing, applies migrations, seeds a usable
 * site. The operator password is printed here once, when the operator is created; it is stored only
 * as a hash. `pnpm admin operator:password admin` sets a new one.
 */
const env = loadEnv();
await runMigrations(env.DATABASE_URL);
const { db, close } = createDb(env.DATABASE_URL, { max: 2 });
const { operatorPassword } = await seedDatabase(db);
await close();
if (operatorPassword) {
  console.log("");
  console.log("  Operator account created. Sign in to the back office at /admin with:");
  console.log("    username: admin");
  console.log(`    password: ${operatorPassword}`);
  console.log("  This password is shown only once. Set a new one with: pnpm admin operator:password admin");
  console.log("");
}
console.log("database ready");
