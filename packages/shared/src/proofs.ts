import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import { MoneyDecimal } from "./money.ts";

/*
 * Proof of liabilities: a Merkle sum tree over every real user's balances. The format, so anyone can
 * check a proof without our code (docs/proof-of-liabilities.md):
 * - amounts are plain decimal strings without trailing zeros ("0", "12.5"); a node's `sums` list one
 *   amount per currency of the proof, in the proof's currency order;
 * - leaf hash = SHA-256 hex of `leaf|<user id>|<salt>|<CUR>=<amount>,<CUR>=<amount>,…`;
 * - a padding leaf (to even a level) = SHA-256 hex of `pad|<level>|<index>` with zero sums;
 * - node hash = SHA-256 hex of `node|<left hash>|<right hash>|<CUR>=<sum>,…`, its sums the left's plus
 *   the right's. The root's sums are the published totals.
 * Every leaf amount and every sum on the path must be non-negative: a negative balance cannot hide a
 * debt, because it would have to show up as a negative sum somewhere on someone's path.
 */

export interface SumNode {
  hash: string;
  /** One amount per currency, in the proof's currency order. */
  sums: string[];
}

export interface LiabilityLeaf {
  userId: number;
  salt: string;
  /** One amount per currency, in the proof's currency order. */
  balances: string[];
}

export interface PathStep extends SumNode {
  /** Where the sibling sits: the current node is hashed as the other side. */
  side: "left" | "right";
}

export interface LiabilityProof {
  proofId: number;
  snapshotAt: string;
  currencies: string[];
  leaf: LiabilityLeaf;
  path: PathStep[];
  root: SumNode;
}

const plain = (v: MoneyDecimal) => v.toFixed();
const sha = (text: string) => bytesToHex(sha256(utf8ToBytes(text)));
const encode = (currencies: string[], amounts: string[]) =>
  currencies.map((c, i) => `${c}=${amounts[i] ?? "0"}`).join(",");

export function leafNode(currencies: string[], leaf: LiabilityLeaf): SumNode {
  const sums = currencies.map((_, i) => plain(new MoneyDecimal(leaf.balances[i] ?? "0")));
  return { hash: sha(`leaf|${leaf.userId}|${leaf.salt}|${encode(currencies, sums)}`), sums };
}

export function padNode(currencies: string[], level: number, index: number): SumNode {
  return { hash: sha(`pad|${level}|${index}`), sums: currencies.map(() => "0") };
}

export function parentNode(currencies: string[], left: SumNode, right: SumNode): SumNode {
  const sums = currencies.map((_, i) =>
    plain(new MoneyDecimal(left.sums[i] ?? "0").plus(right.sums[i] ?? "0")),
  );
  return { hash: sha(`node|${left.hash}|${right.hash}|${encode(currencies, sums)}`), sums };
}

/** Every level of the tree, leaves first; the last level is the root alone. */
export function buildSumTree(currencies: string[], leaves: LiabilityLeaf[]): SumNode[][] {
  let level = leaves.map((leaf) => leafNode(currencies, leaf));
  if (level.length === 0) {
    level = [padNode(currencies, 0, 0)];
  }
  const levels = [level];
  while (level.length > 1) {
    if (level.length % 2 === 1) {
      level = [...level, padNode(currencies, levels.length - 1, level.length)];
      levels[levels.length - 1] = level;
    }
    const next: SumNode[] = [];
    for (let i = 0; i < level.length; i += 2) {
      next.push(parentNode(currencies, level[i] as SumNode, level[i + 1] as SumNode));
    }
    levels.push(next);
    level = next;
  }
  return levels;
}

/** The siblings from a leaf up to the root. */
export function pathOf(levels: SumNode[][], leafIndex: number): PathStep[] {
  const path: PathStep[] = [];
  let index = leafIndex;
  for (let l = 0; l < levels.length - 1; l++) {
    const level = levels[l] as SumNode[];
    const sibling = index % 2 === 0 ? index + 1 : index - 1;
    const node = level[sibling] as SumNode;
    path.push({ side: index % 2 === 0 ? "right" : "left", hash: node.hash, sums: node.sums });
    index = Math.floor(index / 2);
  }
  return path;
}

export type ProofCheck =
  | { ok: true; root: SumNode }
  | { ok: false; reason: "negative" | "root_mismatch"; root: SumNode };

/**
 * Recomputes the root from the user's leaf and the path and compares it (hash and sums) with the
 * published root; refuses any negative amount on the way.
 */
export function verifyLiabilityProof(proof: LiabilityProof): ProofCheck {
  const { currencies } = proof;
  let node = leafNode(currencies, proof.leaf);
  const negative = (n: { sums: string[] }) => n.sums.some((s) => new MoneyDecimal(s).isNegative());
  let bad = negative(node);
  for (const step of proof.path) {
    bad ||= negative(step);
    node = step.side === "right" ? parentNode(currencies, node, step) : parentNode(currencies, step, node);
  }
  if (bad) {
    return { ok: false, reason: "negative", root: node };
  }
  const same =
    node.hash === proof.root.hash &&
    node.sums.length === proof.root.sums.length &&
    node.sums.every((s, i) => new MoneyDecimal(s).equals(proof.root.sums[i] ?? "NaN"));
  return same ? { ok: true, root: node } : { ok: false, reason: "root_mismatch", root: node };
}
