import { desc } from "drizzle-orm";
import type { DbOrTx } from "../db/client.ts";
import { auditLog } from "./audit.table.ts";

/** Appends one operator action to the audit log, in the caller's transaction. */
export async function recordAudit(
  db: DbOrTx,
  entry: { actor: string; action: string; subject?: string; details?: Record<string, unknown> },
): Promise<void> {
  await db.insert(auditLog).values({
    actor: entry.actor,
    action: entry.action,
    subject: entry.subject ?? null,
    details: entry.details ?? {},
  });
}

/** The latest entries first, for the back office. */
export function listAuditLog(db: DbOrTx, limit = 200) {
  return db.select().from(auditLog).orderBy(desc(auditLog.id)).limit(limit);
}
