import { userStatusMachine } from "@northstar/shared/state-machines";
import { eq } from "drizzle-orm";
import { recordAudit } from "../audit/index.ts";
import type { DbOrTx } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { transition } from "../state/index.ts";
import { users } from "./identity.table.ts";
import { revokeUserSessions } from "./sessions.ts";

export type UserStatus = (typeof users.$inferSelect)["status"];

/**
 * An operator freezes a user (active → frozen) or unfreezes one (frozen → active), with a reason.
 * The change goes through the user-status machine as a compare-and-set; freezing ends every live
 * session of the user in the same transaction (revoke reason `frozen`: the client hears code 1000),
 * and sign-in is refused while frozen (ACCOUNT_FROZEN). A user already in that state, or a lost race,
 * answers STATUS_UNCHANGED and changes nothing. Audited with the reason and the state before and after.
 */
export async function setUserStatus(
  db: DbOrTx,
  params: { userId: number; status: UserStatus; reason: string; actor: string },
): Promise<{ userId: number; uid: string; status: UserStatus; sessionsEnded: number }> {
  return db.transaction(async (tx) => {
    const [user] = await tx
      .select({ id: users.id, uid: users.uid, status: users.status })
      .from(users)
      .where(eq(users.id, params.userId));
    if (!user) {
      throw new AppError("NOT_FOUND");
    }
    const changed =
      user.status !== params.status &&
      (await transition(tx, {
        machine: userStatusMachine,
        table: users,
        id: user.id,
        from: user.status,
        to: params.status,
        by: "operator",
        set: { updatedAt: new Date() },
      }));
    if (!changed) {
      throw new AppError("STATUS_UNCHANGED");
    }
    const sessionsEnded = params.status === "frozen" ? await revokeUserSessions(tx, user.id, "frozen") : 0;
    await recordAudit(tx, {
      actor: params.actor,
      action: params.status === "frozen" ? "user.freeze" : "user.unfreeze",
      subject: `user:${user.id}`,
      details: {
        uid: user.uid,
        reason: params.reason,
        before: { status: user.status },
        after: { status: params.status },
        sessionsEnded,
      },
    });
    return { userId: user.id, uid: user.uid, status: params.status, sessionsEnded };
  });
}
