import {
  POLICY,
  POLICY_KEYS,
  type PolicyKey,
  type PolicySnapshot,
  type PolicyValue,
  policyConflict,
  policyDefaults,
} from "@northstar/shared/policy";
import { asc, eq, inArray, type SQL, sql } from "drizzle-orm";
import { recordAudit } from "../audit/index.ts";
import type { DbOrTx } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { policyOverrides } from "./policy.table.ts";

export { policyOverrides };

/**
 * Stored overrides with their JSON read as text and parsed here. Drizzle's jsonb column parses a
 * string value a second time ("0.003" comes back as the number 0.003), which made every decimal
 * override fail its schema and silently fall back to the default.
 */
async function readOverrides(db: DbOrTx, where?: SQL): Promise<{ key: string; value: unknown }[]> {
  const rows = await db
    .select({ key: policyOverrides.key, json: sql<string>`${policyOverrides.value}::text` })
    .from(policyOverrides)
    .where(where)
    .orderBy(asc(policyOverrides.key));
  return rows.map((r) => ({ key: r.key, value: JSON.parse(r.json) as unknown }));
}

/**
 * The one place the server reads a business constant: the operator override if one is stored and
 * still valid, else the default from packages/shared.
 */
export async function getPolicy<K extends PolicyKey>(db: DbOrTx, key: K): Promise<PolicyValue<K>> {
  const [row] = await readOverrides(db, eq(policyOverrides.key, key));
  if (row) {
    const parsed = POLICY[key].schema.safeParse(row.value);
    if (parsed.success) {
      return parsed.data as PolicyValue<K>;
    }
  }
  return POLICY[key].default as PolicyValue<K>;
}

/** Several values in one read (as `getPolicy` reads each): for paths that run on every request. */
export async function getPolicies<const K extends readonly PolicyKey[]>(
  db: DbOrTx,
  keys: K,
): Promise<{ [I in keyof K]: PolicyValue<K[I]> }> {
  const rows = await readOverrides(db, inArray(policyOverrides.key, [...keys]));
  return keys.map((key) => {
    const row = rows.find((r) => r.key === key);
    const parsed = row ? POLICY[key].schema.safeParse(row.value) : undefined;
    return parsed?.success ? parsed.data : POLICY[key].default;
  }) as { [I in keyof K]: PolicyValue<K[I]> };
}

export async function getPolicySnapshot(db: DbOrTx): Promise<PolicySnapshot> {
  const snapshot = policyDefaults() as Record<string, unknown>;
  for (const row of await readOverrides(db)) {
    if (POLICY_KEYS.includes(row.key as PolicyKey)) {
      const parsed = POLICY[row.key as PolicyKey].schema.safeParse(row.value);
      if (parsed.success) {
        snapshot[row.key] = parsed.data;
      }
    }
  }
  return snapshot as PolicySnapshot;
}

/** The values the web shows users; the same ones the server enforces. */
export async function getPublicPolicy(db: DbOrTx): Promise<Partial<PolicySnapshot>> {
  const snapshot = await getPolicySnapshot(db);
  return Object.fromEntries(POLICY_KEYS.filter((k) => POLICY[k].public).map((k) => [k, snapshot[k]]));
}

type PolicyCheck = (db: DbOrTx, value: unknown) => Promise<boolean>;
const checks = new Map<PolicyKey, PolicyCheck>();

/**
 * Lets a module above policy add a check its data answers (a currency that exists, a chain with an
 * address format); policy itself never reaches up into those modules.
 */
export function addPolicyCheck(key: PolicyKey, check: PolicyCheck): void {
  checks.set(key, check);
}

// Counts this process's stored overrides, so that a cache of policy values on a hot path drops its
// copy at once after a change made here (other processes wait out the cache's short life).
let generation = 0;

/** Changes each time this process stores an override. */
export const policyGeneration = (): number => generation;

/**
 * Stores an operator override after validating it, and writes the change to the audit log. The value
 * must fit its own bounds, pass any check a module registered, and leave every min/max pair it takes
 * part in in order once merged with the other stored values. A refused value stores and audits nothing.
 */
export async function setPolicy(db: DbOrTx, key: PolicyKey, value: unknown, actor: string): Promise<void> {
  const parsed = POLICY[key].schema.safeParse(value);
  if (!parsed.success || !((await checks.get(key)?.(db, parsed.data)) ?? true)) {
    throw new AppError("POLICY_VALUE_INVALID", { key }, "value");
  }
  await db.transaction(async (tx) => {
    // One change at a time: two operators moving a minimum and its maximum together could each pass
    // against the other's old value.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended('policy-set', 0))`);
    const snapshot = await getPolicySnapshot(tx);
    const before = snapshot[key];
    const conflict = policyConflict({ ...snapshot, [key]: parsed.data }, key);
    if (conflict) {
      throw new AppError("POLICY_MIN_ABOVE_MAX", conflict, "value");
    }
    await tx
      .insert(policyOverrides)
      .values({ key, value: parsed.data })
      .onConflictDoUpdate({
        target: policyOverrides.key,
        set: { value: parsed.data, updatedAt: new Date() },
      });
    await recordAudit(tx, {
      actor,
      action: "policy.set",
      subject: key,
      details: { before, after: parsed.data },
    });
  });
  generation++;
}
