import { MoneyDecimal } from "@northstar/shared/money";
import { buildSumTree, type LiabilityLeaf } from "@northstar/shared/proofs";
import { asc, desc, eq } from "drizzle-orm";
import type { DbOrTx, Tx } from "../db/client.ts";
import { addReconcileCheck, type ReconcileCheckResult } from "../ledger/index.ts";
import { computeLiabilities } from "./liabilities.ts";
import { liabilityProofLeaves, liabilityProofs } from "./proofs.table.ts";

/**
 * The proof of liabilities' part of every reconciliation (`pnpm admin reconcile`):
 * - `liabilities`: a fresh computation, in one repeatable-read snapshot, of every user's claims by
 *   bucket; their totals must equal the ledger's user claims (user accounts, the earn_custody and
 *   c2c_reserved accounts, the open option stakes and the accrued yield), the earn orders' principal
 *   the earn_custody account, the C2C reservations the c2c_reserved accounts, and no bucket may be
 *   negative;
 * - `latest-proof`: the latest published proof rebuilt from its stored leaves gives its published
 *   root and totals, and (version 2) its totals equal the ledger's user claims recorded at its snapshot.
 */
export async function checkLiabilities(db: DbOrTx, now = new Date()): Promise<ReconcileCheckResult[]> {
  const run = (tx: DbOrTx) => Promise.all([freshCheck(tx, now), latestProofCheck(tx)]);
  // Given a transaction, the caller's snapshot; otherwise one of our own.
  return "rollback" in db
    ? run(db)
    : db.transaction((tx: Tx) => run(tx), { isolationLevel: "repeatable read" });
}

async function freshCheck(tx: DbOrTx, now: Date): Promise<ReconcileCheckResult> {
  const liabilities = await computeLiabilities(tx, now);
  const lines = liabilities.ledger.map((l, i) => {
    const leaves = liabilities.users.reduce(
      (s, u) => u.breakdown.reduce((t, row) => t.plus(row[i] ?? 0), s),
      new MoneyDecimal(0),
    );
    return (
      `${l.currency}: users' claims ${leaves.toFixed()}, ledger ${l.total} (user accounts ${l.userAccounts}, ` +
      `earn custody ${l.earnCustody}, c2c reserved ${l.c2cReserved}, option stakes ${l.optionStakes}, ` +
      `accrued yield ${l.accruedYield})`
    );
  });
  return {
    name: "liabilities",
    ok: liabilities.problems.length === 0,
    lines,
    problems: liabilities.problems,
  };
}

async function latestProofCheck(tx: DbOrTx): Promise<ReconcileCheckResult> {
  const [proof] = await tx
    .select()
    .from(liabilityProofs)
    .orderBy(desc(liabilityProofs.snapshotAt), desc(liabilityProofs.id))
    .limit(1);
  if (!proof) {
    return { name: "latest-proof", ok: true, lines: ["no proof published yet"], problems: [] };
  }
  const rows = await tx
    .select()
    .from(liabilityProofLeaves)
    .where(eq(liabilityProofLeaves.proofId, proof.id))
    .orderBy(asc(liabilityProofLeaves.leafIndex));
  const leaves: LiabilityLeaf[] = rows.map((r) => ({
    userId: r.userId,
    salt: r.salt,
    balances: r.balances,
    ...(r.breakdown ? { breakdown: r.breakdown } : {}),
  }));
  const format = { version: proof.version, buckets: proof.buckets ?? [] };
  const root = buildSumTree(proof.currencies, leaves, format).at(-1)?.[0];
  const problems: string[] = [];
  if (
    !root ||
    root.hash !== proof.rootHash ||
    !proof.currencies.every((_, i) =>
      new MoneyDecimal(root.sums[i] ?? "NaN").equals(proof.rootSums[i] ?? "NaN"),
    )
  ) {
    problems.push(`proof ${proof.id}: its stored leaves do not give its published root`);
  }
  if (proof.version >= 2) {
    leaves.forEach((l) => {
      const totals = proof.currencies.map((_, i) =>
        (l.breakdown ?? []).reduce((s, row) => s.plus(row[i] ?? 0), new MoneyDecimal(0)),
      );
      if (!totals.every((t, i) => t.equals(l.balances[i] ?? "NaN"))) {
        problems.push(`proof ${proof.id}: the leaf of user ${l.userId} does not add up to its balances`);
      }
    });
    proof.currencies.forEach((currency, i) => {
      const claims = proof.ledgerClaims?.find((c) => c.currency === currency);
      if (!claims || !new MoneyDecimal(claims.total).equals(proof.rootSums[i] ?? "NaN")) {
        problems.push(
          `proof ${proof.id} ${currency}: published total ${proof.rootSums[i]}, ledger's user claims at its snapshot ${claims?.total ?? "none"}`,
        );
      }
    });
  }
  const lines = proof.currencies.map(
    (currency, i) =>
      `proof ${proof.id} of ${proof.snapshotAt.toISOString()} ${currency}: published ${proof.rootSums[i]}, ` +
      `ledger at its snapshot ${proof.ledgerClaims?.find((c) => c.currency === currency)?.total ?? "not recorded (version 1)"}`,
  );
  return { name: "latest-proof", ok: problems.length === 0, lines, problems };
}

addReconcileCheck(checkLiabilities);
