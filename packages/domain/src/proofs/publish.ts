import { randomBytes } from "node:crypto";
import { MoneyDecimal } from "@northstar/shared/money";
import {
  buildSumTree,
  type LiabilityLeaf,
  type LiabilityProof,
  PROOF_BUCKETS,
  PROOF_VERSION,
} from "@northstar/shared/proofs";
import { and, asc, desc, eq, gte, lt, or, sql } from "drizzle-orm";
import { recordAudit } from "../audit/index.ts";
import type { Db, DbOrTx } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { computeLiabilities } from "./liabilities.ts";
import { liabilityProofLeaves, liabilityProofNodes, liabilityProofs } from "./proofs.table.ts";

/** Rows per insert statement (as JSON, one parameter whatever their number). */
const CHUNK = 5000;

export interface ProofSummary {
  id: number;
  snapshotAt: string;
  rootHash: string;
  leafCount: number;
  /** The leaf format (2: each claim broken down by bucket). */
  version: number;
  /**
   * The published totals: what the platform owes its users, per currency, and (version 2) how they
   * break down by bucket (the leaves' breakdowns summed).
   */
  totals: { currency: string; total: string; buckets: { bucket: string; amount: string }[] }[];
}

const summary = (p: typeof liabilityProofs.$inferSelect): ProofSummary => ({
  id: p.id,
  snapshotAt: p.snapshotAt.toISOString(),
  rootHash: p.rootHash,
  leafCount: p.leafCount,
  version: p.version,
  totals: p.currencies.map((currency, i) => ({
    currency,
    total: p.rootSums[i] ?? "0",
    buckets: (p.buckets ?? []).map((bucket, b) => ({ bucket, amount: p.bucketTotals?.[b]?.[i] ?? "0" })),
  })),
});

/**
 * Takes a consistent snapshot of every real-book user's claims (every wallet's available and held
 * funds, and what the platform owes them in system accounts: earn custody principal and accrued
 * yield, open option stakes, C2C reservations), broken down by bucket, in one repeatable-read
 * transaction so transfers running meanwhile are counted once or not yet, never twice; refuses to
 * publish when the modules' rows and the ledger disagree; builds the Merkle sum tree (leaves in a
 * random order, each salted) and stores it with its root, totals and the ledger's figures. Demo
 * balances are never included. Publishing runs one at a time.
 */
export async function publishProof(db: Db, actor: string, now = new Date()): Promise<ProofSummary> {
  return db.transaction(
    async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext('liability-proof'))`);
      const liabilities = await computeLiabilities(tx, now);
      if (liabilities.problems.length > 0) {
        throw new Error(`liabilities do not reconcile: ${liabilities.problems.join("; ")}`);
      }
      const { currencies } = liabilities;
      const format = { version: PROOF_VERSION, buckets: PROOF_BUCKETS };
      // A random order, so a sibling in a path is nobody in particular (not the next registration).
      const leaves: LiabilityLeaf[] = liabilities.users
        .map((u) => {
          const breakdown = u.breakdown.map((row) => row.map((a) => a.toFixed()));
          const balances = currencies.map((_, i) =>
            u.breakdown.reduce((sum, row) => sum.plus(row[i] ?? 0), new MoneyDecimal(0)).toFixed(),
          );
          return { userId: u.userId, salt: randomBytes(16).toString("hex"), balances, breakdown };
        })
        .sort((a, b) => (a.salt < b.salt ? -1 : 1));
      const levels = buildSumTree(currencies, leaves, format);
      const root = levels.at(-1)?.[0];
      if (!root) {
        throw new Error("empty tree");
      }
      const bucketTotals = PROOF_BUCKETS.map((_, b) =>
        currencies.map((_, i) =>
          liabilities.users
            .reduce((sum, u) => sum.plus(u.breakdown[b]?.[i] ?? 0), new MoneyDecimal(0))
            .toFixed(),
        ),
      );
      const [proof] = await tx
        .insert(liabilityProofs)
        .values({
          snapshotAt: now,
          currencies,
          rootHash: root.hash,
          rootSums: root.sums,
          leafCount: leaves.length,
          version: PROOF_VERSION,
          buckets: [...PROOF_BUCKETS],
          bucketTotals,
          ledgerClaims: liabilities.ledger,
          publishedBy: actor,
        })
        .returning();
      if (!proof) {
        throw new Error("proof not stored");
      }
      const leafRows = leaves.map((l, i) => ({
        proof_id: proof.id,
        user_id: l.userId,
        leaf_index: i,
        salt: l.salt,
        balances: l.balances,
        breakdown: l.breakdown,
      }));
      for (let i = 0; i < leafRows.length; i += CHUNK) {
        await tx.execute(sql`
          insert into liability_proof_leaves (proof_id, user_id, leaf_index, salt, balances, breakdown)
          select proof_id, user_id, leaf_index, salt, balances, breakdown
          from jsonb_to_recordset(${JSON.stringify(leafRows.slice(i, i + CHUNK))}::jsonb)
            as v(proof_id bigint, user_id bigint, leaf_index int, salt text, balances jsonb, breakdown jsonb)`);
      }
      const nodeRows = levels.flatMap((level, l) =>
        level.map((n, idx) => ({ proof_id: proof.id, level: l, idx, hash: n.hash, sums: n.sums })),
      );
      for (let i = 0; i < nodeRows.length; i += CHUNK) {
        await tx.execute(sql`
          insert into liability_proof_nodes (proof_id, level, idx, hash, sums)
          select proof_id, level, idx, hash, sums
          from jsonb_to_recordset(${JSON.stringify(nodeRows.slice(i, i + CHUNK))}::jsonb)
            as v(proof_id bigint, level int, idx int, hash text, sums jsonb)`);
      }
      await recordAudit(tx, {
        actor,
        action: "proof.publish",
        subject: String(proof.id),
        details: { rootHash: root.hash, leafCount: leaves.length, currencies, totals: root.sums },
      });
      return summary(proof);
    },
    { isolationLevel: "repeatable read" },
  );
}

/**
 * The daily run (the `proof-publish` job): publishes unless a proof of the same UTC day exists, so
 * a job delivered twice or a worker restarted the same day publishes once.
 */
export async function publishDailyProof(db: Db, now = new Date()): Promise<ProofSummary | null> {
  const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const next = new Date(day.getTime() + 86_400_000);
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('liability-proof-daily'))`);
    const [today] = await tx
      .select({ id: liabilityProofs.id })
      .from(liabilityProofs)
      .where(
        and(
          gte(liabilityProofs.snapshotAt, day),
          lt(liabilityProofs.snapshotAt, next),
          eq(liabilityProofs.publishedBy, "system"),
        ),
      )
      .limit(1);
    return today ? null : publishProof(db, "system", now);
  });
}

/** Published proofs, latest first. */
export async function listProofs(db: DbOrTx, limit = 30): Promise<ProofSummary[]> {
  const rows = await db
    .select()
    .from(liabilityProofs)
    .orderBy(desc(liabilityProofs.snapshotAt), desc(liabilityProofs.id))
    .limit(limit);
  return rows.map(summary);
}

/**
 * A user's own proof (the latest one by default): their leaf with its salt (and, from version 2, its
 * breakdown by bucket), the siblings up to the root and the published root, everything needed to
 * recompute it. PROOF_NOT_FOUND when the user
 * held nothing at that snapshot (or asks for a proof that does not exist).
 */
export async function getMyProof(db: DbOrTx, userId: number, proofId?: number): Promise<LiabilityProof> {
  const [proof] = await db
    .select()
    .from(liabilityProofs)
    .where(proofId === undefined ? undefined : eq(liabilityProofs.id, proofId))
    .orderBy(desc(liabilityProofs.snapshotAt), desc(liabilityProofs.id))
    .limit(1);
  if (!proof) {
    throw new AppError("PROOF_NOT_FOUND");
  }
  const [leaf] = await db
    .select()
    .from(liabilityProofLeaves)
    .where(and(eq(liabilityProofLeaves.proofId, proof.id), eq(liabilityProofLeaves.userId, userId)));
  if (!leaf) {
    throw new AppError("PROOF_NOT_FOUND");
  }
  // The sibling at each level, found by index arithmetic, in one query.
  const wanted: { level: number; idx: number }[] = [];
  let index = leaf.leafIndex;
  let width = proof.leafCount;
  for (let level = 0; width > 1; level++) {
    const padded = width % 2 === 1 ? width + 1 : width;
    wanted.push({ level, idx: index % 2 === 0 ? index + 1 : index - 1 });
    index = Math.floor(index / 2);
    width = padded / 2;
  }
  const nodes =
    wanted.length === 0
      ? []
      : await db
          .select()
          .from(liabilityProofNodes)
          .where(
            and(
              eq(liabilityProofNodes.proofId, proof.id),
              or(
                ...wanted.map((w) =>
                  and(eq(liabilityProofNodes.level, w.level), eq(liabilityProofNodes.idx, w.idx)),
                ),
              ),
            ),
          )
          .orderBy(asc(liabilityProofNodes.level));
  // Rebuild the path as `pathOf` would over the stored levels.
  const levels = wanted.map((w) => {
    const n = nodes.find((x) => x.level === w.level && x.idx === w.idx);
    if (!n) {
      throw new Error(`proof ${proof.id}: node ${w.level}/${w.idx} missing`);
    }
    return n;
  });
  let i = leaf.leafIndex;
  const path = levels.map((n) => {
    const step = { side: i % 2 === 0 ? ("right" as const) : ("left" as const), hash: n.hash, sums: n.sums };
    i = Math.floor(i / 2);
    return step;
  });
  return {
    version: proof.version,
    ...(proof.version === 1 ? {} : { buckets: proof.buckets ?? [] }),
    proofId: proof.id,
    snapshotAt: proof.snapshotAt.toISOString(),
    currencies: proof.currencies,
    leaf: {
      userId,
      salt: leaf.salt,
      balances: leaf.balances,
      ...(proof.version === 1 ? {} : { breakdown: leaf.breakdown ?? [] }),
    },
    path,
    root: { hash: proof.rootHash, sums: proof.rootSums },
  };
}
