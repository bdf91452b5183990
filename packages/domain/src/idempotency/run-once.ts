import { hash } from "node:crypto";
import { idempotentRequestMachine } from "@northstar/shared/state-machines";
import { and, eq, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { getPolicy } from "../policy/index.ts";
import { transition } from "../state/index.ts";
import { idempotentRequests } from "./idempotency.table.ts";

/** Keys the web client makes (22 base64url characters) and legacy `rtoken`s (6–16) both fit. */
const KEY = /^[A-Za-z0-9_-]{6,64}$/;

/**
 * Left out of the request hash: a hash of a 6-digit trade password could be reversed by trying them
 * all. A retry of an applied request with another code still gets the first answer, which is the
 * same signed-in user's own result.
 */
const SECRET_FIELDS = new Set(["trade_password", "google_code", "password", "login_password"]);

export interface IdempotentRequest {
  userId: number;
  key: string;
  /** The action the key is used for; the same key for another action is refused. */
  action: string;
  /** The input as its contract parsed it (zod returns keys in the schema's order). */
  input: Record<string, unknown>;
  /** The field a refusal names: `idempotency_key` (tRPC header) or `rtoken` (legacy calls). */
  field?: string;
}

/** Given to the action: it records the answer in its own transaction, just before committing. */
export interface OnceRecorder {
  record(tx: DbOrTx, answer: unknown): Promise<void>;
}

export function assertIdempotencyKey(key: string, field = "idempotency_key"): void {
  if (!KEY.test(key)) {
    throw new AppError("FIELD_INVALID", {}, field);
  }
}

/** SHA-256 over the action and the input without its secrets. */
export function requestHash(action: string, input: Record<string, unknown>): string {
  const kept = Object.fromEntries(Object.entries(input).filter(([name]) => !SECRET_FIELDS.has(name)));
  return hash("sha256", `${action}\n${JSON.stringify(kept)}`, "hex");
}

/**
 * Runs a money action at most once per (user, key). The first request claims the key (`running`),
 * runs the action, and the action records its answer as `done` in its own transaction. A repeat
 * answers that first answer again; one arriving while the first still runs is refused with
 * REQUEST_IN_PROGRESS (a retry then gets the answer); the same key with another input or action is
 * refused with IDEMPOTENCY_KEY_REUSED. A refusal or failure releases the claim: nothing was applied,
 * so a retry runs the action again.
 */
export async function runOnce<T>(
  db: Db,
  request: IdempotentRequest,
  run: (once: OnceRecorder) => Promise<T>,
): Promise<T> {
  const field = request.field ?? "idempotency_key";
  assertIdempotencyKey(request.key, field);
  const hash = requestHash(request.action, request.input);
  const claim = await claimKey(db, request, hash, field);
  if ("answer" in claim) {
    // What the first request answered, as the wire carried it (dates as ISO strings).
    return claim.answer as T;
  }
  let recorded = false;
  const once: OnceRecorder = {
    async record(tx, answer) {
      const done = await transition(tx, {
        machine: idempotentRequestMachine,
        table: idempotentRequests,
        id: claim.id,
        from: "running",
        to: "done",
        by: "system",
        set: { answer: JSON.stringify(answer), completedAt: new Date() },
      });
      if (!done) {
        // The claim was released as stale meanwhile and may be someone else's now: roll back.
        throw new AppError("REQUEST_IN_PROGRESS", {}, field);
      }
      recorded = true;
    },
  };
  try {
    const result = await run(once);
    if (!recorded) {
      await once.record(db, result);
    }
    return result;
  } catch (error) {
    await releaseClaim(db, claim.id);
    throw error;
  }
}

/** How often a claim that could not be released is tried again, and for how long. */
const RELEASE_RETRY_MS = 1000;
const RELEASE_RETRY_FOR_MS = 10 * 60_000;

/**
 * Releases the claim of an action that failed. Only a claim still `running` is deleted: an action
 * that committed (its transaction recorded the answer, or a commit whose answer was lost with the
 * connection did) keeps its `done` claim. When the database cannot be reached (the failure was a
 * restart), the release is tried again in the background until it answers, so a resend is not
 * refused as in progress for `staleSeconds` after the database is back; past RELEASE_RETRY_FOR_MS,
 * or if this process ends, the claim is released as stale.
 */
async function releaseClaim(db: Db, id: number): Promise<void> {
  const release = () =>
    db
      .delete(idempotentRequests)
      .where(and(eq(idempotentRequests.id, id), eq(idempotentRequests.status, "running")));
  try {
    await release();
  } catch {
    const giveUpAt = Date.now() + RELEASE_RETRY_FOR_MS;
    const retry = () => {
      release().catch(() => {
        if (Date.now() < giveUpAt) {
          setTimeout(retry, RELEASE_RETRY_MS).unref();
        }
      });
    };
    setTimeout(retry, RELEASE_RETRY_MS).unref();
  }
}

type Claim = { id: number } | { answer: unknown };

async function claimKey(db: Db, request: IdempotentRequest, hash: string, field: string): Promise<Claim> {
  // Two rounds at most: a stale claim released in the first lets the second claim the key.
  for (let round = 0; round < 2; round++) {
    const [mine] = await db
      .insert(idempotentRequests)
      .values({ userId: request.userId, key: request.key, action: request.action, requestHash: hash })
      .onConflictDoNothing({ target: [idempotentRequests.userId, idempotentRequests.key] })
      .returning({ id: idempotentRequests.id });
    if (mine) {
      await purgeExpired(db);
      return mine;
    }
    const [prior] = await db
      .select()
      .from(idempotentRequests)
      .where(and(eq(idempotentRequests.userId, request.userId), eq(idempotentRequests.key, request.key)));
    if (!prior) {
      continue;
    }
    if (prior.action !== request.action || prior.requestHash !== hash) {
      throw new AppError("IDEMPOTENCY_KEY_REUSED", {}, field);
    }
    if (prior.status === "done") {
      return { answer: prior.answer === null ? null : (JSON.parse(prior.answer) as unknown) };
    }
    if (!(await releaseStale(db, prior.id))) {
      throw new AppError("REQUEST_IN_PROGRESS", {}, field);
    }
  }
  throw new AppError("REQUEST_IN_PROGRESS", {}, field);
}

/**
 * Deletes a claim left `running` longer than `idempotency.staleSeconds` (its process ended before
 * the action committed, so nothing was applied). A claim whose action is committing holds its row
 * lock; this waits for it, then sees `done` and deletes nothing.
 */
async function releaseStale(db: Db, id: number): Promise<boolean> {
  const staleSeconds = await getPolicy(db, "idempotency.staleSeconds");
  const released = await db
    .delete(idempotentRequests)
    .where(
      and(
        eq(idempotentRequests.id, id),
        eq(idempotentRequests.status, "running"),
        sql`${idempotentRequests.createdAt} < now() - make_interval(secs => ${staleSeconds})`,
      ),
    )
    .returning({ id: idempotentRequests.id });
  return released.length > 0;
}

/** Each new claim deletes up to 100 records past `idempotency.retentionHours`, oldest first. */
async function purgeExpired(db: Db): Promise<void> {
  const hours = await getPolicy(db, "idempotency.retentionHours");
  await db.execute(sql`
    delete from idempotent_requests where id in (
      select id from idempotent_requests
      where created_at < now() - make_interval(hours => ${hours})
      order by created_at limit 100)`);
}
