// `pnpm verify-proof <file>`: checks a proof of liabilities downloaded from "Verify my balance"
// without the platform: recomputes the leaf from its breakdown by bucket, then the root from the
// leaf and the path (format in docs/proof-of-liabilities.md) and compares it with the published
// root. Exit code 0 when it holds.
import { readFileSync } from "node:fs";
import { MoneyDecimal } from "../packages/shared/src/money.ts";
import { type LiabilityProof, verifyLiabilityProof } from "../packages/shared/src/proofs.ts";

const file = process.argv[2];
if (!file) {
  console.error("usage: pnpm verify-proof <proof.json>");
  process.exit(2);
}
const proof = JSON.parse(readFileSync(file, "utf8")) as LiabilityProof;
const check = verifyLiabilityProof(proof);
const version = proof.version ?? 1;
console.log(
  `proof ${proof.proofId} of ${proof.snapshotAt}, account ${proof.leaf.userId}, leaf format ${version}`,
);
proof.currencies.forEach((currency, i) => {
  console.log(`  ${currency}: your balance ${proof.leaf.balances[i]}, published total ${proof.root.sums[i]}`);
  (proof.buckets ?? []).forEach((bucket, b) => {
    const amount = proof.leaf.breakdown?.[b]?.[i] ?? "0";
    if (!new MoneyDecimal(amount).isZero()) {
      console.log(`    ${bucket.padEnd(16)} ${amount}`);
    }
  });
});
console.log(`  recomputed root ${check.root.hash}`);
console.log(`  published root  ${proof.root.hash}`);
if (check.ok) {
  console.log("VERIFIED: your balance is counted in the published totals");
  process.exit(0);
}
const reasons: Record<typeof check.reason, string> = {
  negative: "FAILED: a negative amount on the path (a hidden debt)",
  root_mismatch: "FAILED: the recomputed root differs from the published one",
  breakdown_mismatch: "FAILED: the breakdown by bucket does not add up to the balance",
  unknown_version: `FAILED: unknown leaf format ${version}`,
};
console.log(reasons[check.reason]);
process.exit(1);
