import { eq } from "drizzle-orm";
import type { DbOrTx } from "../db/client.ts";
import { operators } from "./admin.table.ts";
import { generateOperatorPassword, upsertOperator } from "./manage-operators.ts";

/**
 * The first operator, "admin", on a fresh site. Returns its password when it created it, so the
 * caller can print it once; it is stored only as a hash.
 */
export async function seedAdminOperator(db: DbOrTx): Promise<{ operatorPassword?: string }> {
  const [admin] = await db
    .select({ id: operators.id })
    .from(operators)
    .where(eq(operators.username, "admin"));
  if (!admin) {
    const password = generateOperatorPassword();
    await upsertOperator(db, { username: "admin", password, role: "admin", actor: "seed" });
    return { operatorPassword: password };
  }
  return {};
}
