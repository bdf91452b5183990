import { describe, expect, it } from "vitest";
import { MoneyDecimal } from "./money.ts";
import {
  buildSumTree,
  type LiabilityLeaf,
  type LiabilityProof,
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
