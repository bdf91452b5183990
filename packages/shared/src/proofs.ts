import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import { MoneyDecimal } from "./money.ts";

/*
 * Proof of liabilities: a Merkle sum tree over every real user's claims. The format, so anyone can
 * check a proof without our code (docs/proof-of-liabilities.md):
 * - amounts are plain decimal strings without trailing zeros ("0", "12.5"); a node's `sums` list one
 *   amount per currency of the proof, in the proof's currency order;
 * - version 2 leaf hash = SHA-256 hex of
 *   `leaf2|<user id>|<salt>|<CUR>=<total>,…|<bucket>:<CUR>=<amount>,…|<bucket>:<CUR>=<amount>,…`,
 *   one `<bucket>:` group per bucket of the proof, in the proof's bucket order; each total is the sum
 *   of that currency over the buckets, and the leaf's sums are those totals;
 * - version 1 leaf hash (proofs published before the breakdown) = SHA-256 hex of
 *   `leaf|<user id>|<salt>|<CUR>=<amount>,<CUR>=<amount>,…`;
 * - a padding leaf (to even a level) = SHA-256 hex of `pad|<level>|<index>` with zero sums;
 * - node hash = SHA-256 hex of `node|<left hash>|<right hash>|<CUR>=<sum>,…`, its sums the left's plus
 *   the right's. The root's sums are the published totals.
 * Every leaf amount (each bucket's too) and every sum on the path must be non-negative: a negative
 * balance cannot hide a debt, because it would have to show up as a negative sum somewhere on
 * someone's path.
 */

/**
 * What a version 2 leaf breaks a user's claims into, in this order: balances free to use, funds
 * held (open spot orders and other holds not named below), contract margin (the contract wallet's
 * held funds), earn custody principal, earn yield accrued and not yet paid, the stakes of open
 * options, launchpad holds (subscriptions under review, allocated coins still locked), coins
 * reserved for the user's C2C purchases, and pending withdrawals.
 */
export const PROOF_BUCKETS = [
  "available",
  "held",
  "contract_margin",
  "earn_principal",
  "earn_yield",
  "option_stake",
  "launchpad",
  "c2c",
  "withdrawal",
] as const;
export type ProofBucket = (typeof PROOF_BUCKETS)[number];

/** The leaf format new proofs are published in. */
export const PROOF_VERSION = 2;

export interface SumNode {
  hash: string;
  /** One amount per currency, in the proof's currency order. */
  sums: string[];
}

export interface LiabilityLeaf {
  userId: number;
  salt: string;
  /** One amount per currency, in the proof's currency order: the user's total claim. */
  balances: string[];
  /**
   * Version 2: one row per bucket of the proof (in its bucket order), each one amount per currency;
   * each currency's buckets add up to its balance.
   */
  breakdown?: string[][];
}

export interface PathStep extends SumNode {
  /** Where the sibling sits: the current node is hashed as the other side. */
  side: "left" | "right";
}

export interface LiabilityProof {
  /** The leaf format: 2 (with the breakdown by bucket); absent or 1 for proofs published before it. */
  version?: number;
  /** Version 2: the buckets of each leaf's breakdown, in order. */
  buckets?: string[];
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

/** The leaf layout of a tree: version 1 (totals only) or version 2 (totals and their buckets). */
export interface LeafFormat {
  version: number;
  buckets?: readonly string[];
}

const V1: LeafFormat = { version: 1 };

/** Each currency's amount summed over the leaf's buckets. */
export function breakdownTotals(currencies: string[], breakdown: string[][]): string[] {
  return currencies.map((_, i) =>
    plain(breakdown.reduce((sum, row) => sum.plus(row[i] ?? "0"), new MoneyDecimal(0))),
  );
}

export function leafNode(currencies: string[], leaf: LiabilityLeaf, format: LeafFormat = V1): SumNode {
  if (format.version === 1) {
    const sums = currencies.map((_, i) => plain(new MoneyDecimal(leaf.balances[i] ?? "0")));
    return { hash: sha(`leaf|${leaf.userId}|${leaf.salt}|${encode(currencies, sums)}`), sums };
  }
  const buckets = format.buckets ?? [];
  const rows = buckets.map((_, b) =>
    currencies.map((_, i) => plain(new MoneyDecimal(leaf.breakdown?.[b]?.[i] ?? "0"))),
  );
  const sums = breakdownTotals(currencies, rows);
  const groups = buckets.map((bucket, b) => `${bucket}:${encode(currencies, rows[b] ?? [])}`);
  return {
    hash: sha(`leaf2|${leaf.userId}|${leaf.salt}|${encode(currencies, sums)}|${groups.join("|")}`),
    sums,
  };
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
export function buildSumTree(
  currencies: string[],
  leaves: LiabilityLeaf[],
  format: LeafFormat = V1,
): SumNode[][] {
  let level = leaves.map((leaf) => leafNode(currencies, leaf, format));
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
  | {
      ok: false;
      reason: "negative" | "root_mismatch" | "breakdown_mismatch" | "unknown_version";
      root: SumNode;
    };

/**
 * Recomputes the root from the user's leaf and the path and compares it (hash and sums) with the
 * published root; refuses any negative amount on the way. A version 2 leaf must carry one row per
 * bucket of the proof, each currency's buckets adding up to its balance.
 */
export function verifyLiabilityProof(proof: LiabilityProof): ProofCheck {
  const { currencies } = proof;
  const version = proof.version ?? 1;
  const format: LeafFormat = { version, buckets: proof.buckets ?? [] };
  let node = leafNode(currencies, proof.leaf, format);
  if (version !== 1 && version !== 2) {
    return { ok: false, reason: "unknown_version", root: node };
  }
  const negative = (amounts: string[]) => amounts.some((s) => new MoneyDecimal(s).isNegative());
  if (version === 2) {
    const breakdown = proof.leaf.breakdown ?? [];
    const shaped =
      (proof.buckets?.length ?? 0) > 0 &&
      breakdown.length === proof.buckets?.length &&
      breakdown.every((row) => row.length === currencies.length) &&
      proof.leaf.balances.length === currencies.length;
    const sums = shaped ? breakdownTotals(currencies, breakdown) : [];
    if (!shaped || !sums.every((s, i) => new MoneyDecimal(s).equals(proof.leaf.balances[i] ?? "NaN"))) {
      return { ok: false, reason: "breakdown_mismatch", root: node };
    }
    if (breakdown.some(negative)) {
      return { ok: false, reason: "negative", root: node };
    }
  }
  let bad = negative(node.sums) || negative(proof.leaf.balances);
  for (const step of proof.path) {
    bad ||= negative(step.sums);
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
