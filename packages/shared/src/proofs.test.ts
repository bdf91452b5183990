import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { MoneyDecimal } from "./money.ts";
import {
  breakdownTotals,
  buildSumTree,
  type LiabilityLeaf,
  type LiabilityProof,
  leafNode,
  PROOF_BUCKETS,
  PROOF_VERSION,
  pathOf,
  verifyLiabilityProof,
} from "./proofs.ts";

const currencies = ["BTC", "USDT"];
const leaves: LiabilityLeaf[] = Array.from({ length: 7 }, (_, i) => ({
  userId: 100 + i,
  salt: `salt-${i}`,
  balances: [`0.${i}1`, `${1000 * i}.25`],
}));
const levels = buildSumTree(currencies, leaves);
const root = levels.at(-1)?.[0] as NonNullable<ReturnType<typeof buildSumTree>[number][number]>;
const proofFor = (i: number): LiabilityProof => ({
  proofId: 1,
  snapshotAt: "2026-11-25T00:00:00.000Z",
  currencies,
  leaf: leaves[i] as LiabilityLeaf,
  path: pathOf(levels, i),
  root,
});

describe("the liabilities sum tree", () => {
  it("sums every leaf into the root, padding an odd level with zero", () => {
    const btc = leaves.reduce((s, l) => s.plus(l.balances[0] as string), new MoneyDecimal(0));
    const usdt = leaves.reduce((s, l) => s.plus(l.balances[1] as string), new MoneyDecimal(0));
    expect(root.sums).toEqual([btc.toFixed(), usdt.toFixed()]);
    expect(levels.map((l) => l.length)).toEqual([8, 4, 2, 1]);
  });

  it("verifies every user's proof", () => {
    for (let i = 0; i < leaves.length; i++) {
      expect(verifyLiabilityProof(proofFor(i))).toMatchObject({ ok: true });
    }
  });

  it("fails a tampered leaf, a wrong sum on the path, a leaf that is not in the tree and a negative amount", () => {
    const tampered = proofFor(3);
    expect(
      verifyLiabilityProof({ ...tampered, leaf: { ...tampered.leaf, balances: ["0.31", "3000.26"] } }),
    ).toMatchObject({ ok: false, reason: "root_mismatch" });
    const wrongSum = proofFor(2);
    wrongSum.path[1] = { ...(wrongSum.path[1] as (typeof wrongSum.path)[number]), sums: ["0", "1"] };
    expect(verifyLiabilityProof(wrongSum)).toMatchObject({ ok: false, reason: "root_mismatch" });
    // An account left out of the snapshot has no path to this root.
    const missing = { ...proofFor(0), leaf: { userId: 999, salt: "x", balances: ["1", "1"] } };
    expect(verifyLiabilityProof(missing)).toMatchObject({ ok: false, reason: "root_mismatch" });
    // A debt slipped in as a negative balance: the user whose path passes it sees it (a sum tree
    // shows each user only their own path; every user who checks covers theirs).
    const withDebt = [...leaves, { userId: 200, salt: "s", balances: ["0", "-500"] }];
    const debtLevels = buildSumTree(currencies, withDebt);
    const debtProof: LiabilityProof = {
      ...proofFor(6),
      leaf: withDebt[6] as LiabilityLeaf,
      path: pathOf(debtLevels, 6),
      root: debtLevels.at(-1)?.[0] as LiabilityProof["root"],
    };
    expect(verifyLiabilityProof(debtProof)).toMatchObject({ ok: false, reason: "negative" });
    // A changed root total.
    expect(
      verifyLiabilityProof({ ...proofFor(1), root: { ...root, sums: [root.sums[0] as string, "1"] } }),
    ).toMatchObject({
      ok: false,
    });
  });
});

describe("the version 2 leaf: the claims broken down by bucket", () => {
  const buckets = [...PROOF_BUCKETS];
  const format = { version: PROOF_VERSION, buckets };
  const row = (btc: string, usdt: string) => [btc, usdt];
  /** available, held, contract margin, earn principal, earn yield, option stake, launchpad, c2c, withdrawal. */
  const breakdownOf = (i: number) => [
    row(`0.${i}1`, `${100 * i}`),
    row("0", "20.5"),
    row("0", "30"),
    row("0", `${500 + i}`),
    row("0", "0.41"),
    row("0", "12"),
    row("0.002", "15"),
    row("0", "7"),
    row("0.01", "40"),
  ];
  const v2leaves: LiabilityLeaf[] = Array.from({ length: 5 }, (_, i) => {
    const breakdown = breakdownOf(i);
    return { userId: 300 + i, salt: `s${i}`, balances: breakdownTotals(currencies, breakdown), breakdown };
  });
  const v2levels = buildSumTree(currencies, v2leaves, format);
  const v2root = v2levels.at(-1)?.[0] as LiabilityProof["root"];
  const v2proof = (i: number): LiabilityProof => ({
    version: PROOF_VERSION,
    buckets,
    proofId: 2,
    snapshotAt: "2026-11-26T00:00:00.000Z",
    currencies,
    leaf: v2leaves[i] as LiabilityLeaf,
    path: pathOf(v2levels, i),
    root: v2root,
  });

  it("hashes the leaf exactly as documented: totals, then every bucket in order", () => {
    const leaf = v2leaves[1] as LiabilityLeaf;
    expect(leaf.balances).toEqual(["0.122", "725.91"]);
    const text =
      "leaf2|301|s1|BTC=0.122,USDT=725.91|available:BTC=0.11,USDT=100|held:BTC=0,USDT=20.5|" +
      "contract_margin:BTC=0,USDT=30|earn_principal:BTC=0,USDT=501|earn_yield:BTC=0,USDT=0.41|" +
      "option_stake:BTC=0,USDT=12|launchpad:BTC=0.002,USDT=15|c2c:BTC=0,USDT=7|withdrawal:BTC=0.01,USDT=40";
    expect(leafNode(currencies, leaf, format)).toEqual({
      hash: createHash("sha256").update(text).digest("hex"),
      sums: ["0.122", "725.91"],
    });
    // The root's sums are the leaves' totals, every bucket included.
    const usdt = v2leaves.reduce((s, l) => s.plus(l.balances[1] as string), new MoneyDecimal(0));
    expect(v2root.sums[1]).toBe(usdt.toFixed());
  });

  it("verifies every user's proof, and a version 1 proof still verifies as before", () => {
    for (let i = 0; i < v2leaves.length; i++) {
      expect(verifyLiabilityProof(v2proof(i))).toMatchObject({ ok: true });
    }
    expect(verifyLiabilityProof({ ...proofFor(2), version: 1 })).toMatchObject({ ok: true });
  });

  it("refuses a tampered breakdown, one that does not add up, a negative bucket and a missing bucket", () => {
    const base = v2proof(2);
    const leaf = base.leaf;
    const breakdown = leaf.breakdown as string[][];
    // 10 USDT moved from earn principal to available: the totals are unchanged, the hash is not.
    const moved = breakdown.map((r) => [...r]);
    (moved[0] as string[])[1] = new MoneyDecimal(moved[0]?.[1] ?? "0").plus(10).toFixed();
    (moved[3] as string[])[1] = new MoneyDecimal(moved[3]?.[1] ?? "0").minus(10).toFixed();
    expect(verifyLiabilityProof({ ...base, leaf: { ...leaf, breakdown: moved } })).toMatchObject({
      ok: false,
      reason: "root_mismatch",
    });
    // A bucket raised without the balance: the breakdown no longer adds up.
    const raised = breakdown.map((r) => [...r]);
    (raised[8] as string[])[1] = "41";
    expect(verifyLiabilityProof({ ...base, leaf: { ...leaf, breakdown: raised } })).toMatchObject({
      ok: false,
      reason: "breakdown_mismatch",
    });
    // A debt hidden in one bucket against another: the totals add up, the negative is refused.
    const debt = breakdown.map((r) => [...r]);
    (debt[1] as string[])[1] = "-100";
    (debt[0] as string[])[1] = new MoneyDecimal(debt[0]?.[1] ?? "0").plus("120.5").toFixed();
    expect(verifyLiabilityProof({ ...base, leaf: { ...leaf, breakdown: debt } })).toMatchObject({
      ok: false,
      reason: "negative",
    });
    // A bucket dropped from the proof's list and the leaf alike.
    expect(
      verifyLiabilityProof({
        ...base,
        buckets: buckets.slice(0, -1),
        leaf: {
          ...leaf,
          breakdown: breakdown.slice(0, -1),
          balances: breakdownTotals(currencies, breakdown.slice(0, -1)),
        },
      }),
    ).toMatchObject({ ok: false, reason: "root_mismatch" });
    // A version 2 proof without its breakdown, and an unknown version.
    expect(verifyLiabilityProof({ ...base, leaf: { ...leaf, breakdown: undefined } })).toMatchObject({
      ok: false,
      reason: "breakdown_mismatch",
    });
    expect(verifyLiabilityProof({ ...base, version: 3 })).toMatchObject({
      ok: false,
      reason: "unknown_version",
    });
  });
});
