// `pnpm verify-proof <file>`: checks a proof of liabilities downloaded from "Verify my balance"
// without the platform: recomputes the root from the leaf and the path (format in
// docs/proof-of-liabilities.md) and compares it with the published root. Exit code 0 when it holds.
import { readFileSync } from "node:fs";
import { type LiabilityProof, verifyLiabilityProof } from "../packages/shared/src/proofs.ts";

const file = process.argv[2];
if (!file) {
  console.error("usage: pnpm verify-proof <proof.json>");
  process.exit(2);
}
const proof = JSON.parse(readFileSync(file, "utf8")) as LiabilityProof;
const check = verifyLiabilityProof(proof);
console.log(`proof ${proof.proofId} of ${proof.snapshotAt}, account ${proof.leaf.userId}`);
proof.currencies.forEach((currency, i) => {
  console.log(`  ${currency}: your balance ${proof.leaf.balances[i]}, published total ${proof.root.sums[i]}`);
});
console.log(`  recomputed root ${check.root.hash}`);
console.log(`  published root  ${proof.root.hash}`);
if (check.ok) {
  console.log("VERIFIED: your balance is counted in the published totals");
  process.exit(0);
}
console.log(
  check.reason === "negative"
    ? "FAILED: a negative amount on the path (a hidden debt)"
    : "FAILED: the recomputed root differs from the published one",
);
process.exit(1);
