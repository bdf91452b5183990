import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import {
  breakdownTotals,
  buildSumTree,
  type LiabilityLeaf,
  type LiabilityProof,
  PROOF_BUCKETS,
  PROOF_VERSION,
  pathOf,
} from "../packages/shared/src/proofs.ts";

/** `pnpm verify-proof <file>` as a user runs it on a downloaded proof: a child process, its output and exit code. */
const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), "verify-proof-"));
const script = join(import.meta.dirname, "verify-proof.ts");

async function verify(proof: LiabilityProof): Promise<{ code: number; out: string }> {
  const file = join(dir, `proof-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(proof, null, 2));
  try {
    const { stdout } = await run(process.execPath, ["--import", "tsx", script, file]);
    return { code: 0, out: stdout };
  } catch (error) {
    const e = error as { code: number; stdout: string };
    return { code: e.code, out: e.stdout };
  }
}

const currencies = ["BTC", "USDT"];
const buckets = [...PROOF_BUCKETS];
// Account 42: 100 available, 20.5 held, 30 margin, 500 earn principal, 0.41 yield, 12 option stake,
// 15 launchpad, 7 C2C, 40 pending withdrawal (USDT), and 0.5 BTC available.
const mine = [
  ["0.5", "100"],
  ["0", "20.5"],
  ["0", "30"],
  ["0", "500"],
  ["0", "0.41"],
  ["0", "12"],
  ["0", "15"],
  ["0", "7"],
  ["0", "40"],
];
const leaves: LiabilityLeaf[] = [
  { userId: 42, salt: "a1", balances: breakdownTotals(currencies, mine), breakdown: mine },
  ...[1, 2].map((i) => {
    const breakdown = buckets.map((_, b) => (b === 0 ? ["1", `${i}00`] : ["0", "0"]));
    return { userId: 50 + i, salt: `b${i}`, balances: breakdownTotals(currencies, breakdown), breakdown };
  }),
];
const levels = buildSumTree(currencies, leaves, { version: PROOF_VERSION, buckets });
const proof: LiabilityProof = {
  version: PROOF_VERSION,
  buckets,
  proofId: 9,
  snapshotAt: "2026-11-27T00:00:00.000Z",
  currencies,
  leaf: leaves[0] as LiabilityLeaf,
  path: pathOf(levels, 0),
  root: levels.at(-1)?.[0] as LiabilityProof["root"],
};

describe("pnpm verify-proof", { timeout: 30_000 }, () => {
  it("verifies a version 2 proof and prints the balance by bucket", async () => {
    const { code, out } = await verify(proof);
    expect(code).toBe(0);
    expect(out).toContain("account 42, leaf format 2");
    expect(out).toContain("USDT: your balance 724.91, published total 1024.91");
    for (const [bucket, amount] of [
      ["available", "100"],
      ["held", "20.5"],
      ["contract_margin", "30"],
      ["earn_principal", "500"],
      ["earn_yield", "0.41"],
      ["option_stake", "12"],
      ["launchpad", "15"],
      ["c2c", "7"],
      ["withdrawal", "40"],
    ]) {
      expect(out).toMatch(new RegExp(`\\n {4}${bucket} +${amount.replace(".", "\\.")}\\n`));
    }
    expect(out).toContain("VERIFIED");
  });

  it("refuses a tampered breakdown: amounts moved between buckets, or a bucket that does not add up", async () => {
    const moved = mine.map((r) => [...r]);
    moved[0] = ["0.5", "600"];
    moved[3] = ["0", "0"];
    const swapped = await verify({ ...proof, leaf: { ...proof.leaf, breakdown: moved } });
    expect(swapped.code).toBe(1);
    expect(swapped.out).toContain("FAILED: the recomputed root differs from the published one");
    const raised = mine.map((r) => [...r]);
    raised[8] = ["0", "400"];
    const inflated = await verify({ ...proof, leaf: { ...proof.leaf, breakdown: raised } });
    expect(inflated.code).toBe(1);
    expect(inflated.out).toContain("FAILED: the breakdown by bucket does not add up to the balance");
  });
});
