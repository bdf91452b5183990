import DataLoader from "dataloader";
import { and, eq, isNull, ne, sql } from "drizzle-orm";
import { type DbOrTx, perHandle } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { getPolicy } from "../policy/index.ts";
import type { User } from "./accounts.ts";
import { sessions, users } from "./identity.table.ts";
import { newToken, sha256 } from "./secrets.ts";

type RevokeReason = NonNullable<(typeof sessions.$inferSelect)["revokeReason"]>;

// Sliding expiry is written at most once a minute per session, not on every request.
const TOUCH_INTERVAL_MS = 60_000;

export async function createSession(
  db: DbOrTx,
  userId: number,
  meta: { ip?: string; userAgent?: string } = {},
): Promise<string> {
  const ttlHours = await getPolicy(db, "identity.session.ttlHours");
  const token = newToken();
  await db.insert(sessions).values({
    userId,
    tokenHash: sha256(token),
    expiresAt: new Date(Date.now() + ttlHours * 3600_000),
    ip: meta.ip ?? null,
    userAgent: meta.userAgent?.slice(0, 300) ?? null,
  });
  return token;
}

/**
 * The session-and-user read every authenticated request makes, built once per database handle (a
 * prepared query): building this two-table select anew was a large share of a request's CPU.
 */
const sessionLookup = perHandle((db) =>
  db
    .select({ session: sessions, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(sql`${sessions.tokenHash} = any(${sql.placeholder("hashes")})`)
    .orderBy(sessions.id)
    .prepare("session_lookup"),
);
type SessionRow = Awaited<ReturnType<ReturnType<typeof sessionLookup>["execute"]>>[number];

/**
 * Requests that arrive in the same turn of the event loop share one lookup query: under load a
 * query serves dozens of requests, which saves the database a round trip for each of them. Nothing
 * is cached between turns, so a revoked session is refused on the very next request.
 */
const sessionLoader = perHandle(
  (db) =>
    new DataLoader<string, SessionRow | undefined>(
      async (hashes) => {
        const rows = await sessionLookup(db).execute({ hashes: [...hashes] });
        const byHash = new Map(rows.map((row) => [row.session.tokenHash, row]));
        return hashes.map((hash) => byHash.get(hash));
      },
      { cache: false, maxBatchSize: 500, batchScheduleFn: (run) => setImmediate(run) },
    ),
);

export interface Authenticated {
  user: User;
  sessionId: number;
  token: string;
}

/**
 * Resolves a token to its user. No token, an unknown, expired or logged-out token → LOGIN_REQUIRED
 * (code 2000). A session the server ended (password changed elsewhere, killed by an operator, frozen
 * account) → SESSION_ENDED (code 1000).
 */
export async function authenticate(db: DbOrTx, token: string | undefined): Promise<Authenticated> {
  if (!token) {
    throw new AppError("LOGIN_REQUIRED");
  }
  const row = await sessionLoader(db).load(sha256(token));
  if (!row) {
    throw new AppError("LOGIN_REQUIRED");
  }
  const { session, user } = row;
  if (session.revokedAt) {
    throw new AppError(session.revokeReason === "logout" ? "LOGIN_REQUIRED" : "SESSION_ENDED");
  }
  if (user.status === "frozen") {
    throw new AppError("SESSION_ENDED");
  }
  const now = Date.now();
  if (session.expiresAt.getTime() <= now) {
    throw new AppError("LOGIN_REQUIRED");
  }
  // An expired demo account answers "the virtual account has expired, regenerate".
  if (user.kind === "demo" && user.demoExpiresAt && user.demoExpiresAt.getTime() <= now) {
    throw new AppError("DEMO_EXPIRED");
  }
  if (now - session.lastSeenAt.getTime() > TOUCH_INTERVAL_MS) {
    const ttlHours = await getPolicy(db, "identity.session.ttlHours");
    await db
      .update(sessions)
      .set({ lastSeenAt: new Date(now), expiresAt: new Date(now + ttlHours * 3600_000) })
      .where(eq(sessions.id, session.id));
  }
  return { user, sessionId: session.id, token };
}

export async function revokeSession(db: DbOrTx, sessionId: number, reason: RevokeReason): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: new Date(), revokeReason: reason })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
}

/** Ends every live session of a user, except `keepSessionId` when given; answers how many it ended. */
export async function revokeUserSessions(
  db: DbOrTx,
  userId: number,
  reason: RevokeReason,
  keepSessionId?: number,
): Promise<number> {
  const conditions = [eq(sessions.userId, userId), isNull(sessions.revokedAt)];
  if (keepSessionId !== undefined) {
    conditions.push(ne(sessions.id, keepSessionId));
  }
  const ended = await db
    .update(sessions)
    .set({ revokedAt: new Date(), revokeReason: reason })
    .where(and(...conditions))
    .returning({ id: sessions.id });
  return ended.length;
}
