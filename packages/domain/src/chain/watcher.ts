import { MoneyDecimal } from "@northstar/shared/money";
import { chainTransferMachine } from "@northstar/shared/state-machines";
import { and, asc, desc, eq, gt, inArray, isNotNull, isNull, lt, ne } from "drizzle-orm";
import { type Address, formatUnits, type PublicClient, parseAbiItem } from "viem";
import { recordAudit } from "../audit/index.ts";
import type { Db, DbOrTx } from "../db/client.ts";
import {
  creditChainDeposit,
  recordChainDeposit,
  refuseChainDeposit,
  setChainDepositConfirmations,
} from "../funding/index.ts";
import type { PriceProvider } from "../markets/index.ts";
import { getPolicy } from "../policy/index.ts";
import { transition } from "../state/index.ts";
import { ownersOf } from "./addresses.ts";
import { chainAlerts, chainBlocks, chainTransfers } from "./chain.table.ts";
import { type ChainConfig, EVM_NATIVE_DECIMALS } from "./config.ts";
import { chainSweeps } from "./sweep.table.ts";

const TRANSFER = parseAbiItem("event Transfer(address indexed from, address indexed to, uint256 value)");
/** The native transfer of a transaction is its "log" −1. */
export const NATIVE_LOG_INDEX = -1;
/** Processed blocks are kept this far behind the last one, for finding where a reorganisation forked. */
const KEEP_BLOCKS = 2_000n;

export interface WatcherDeps {
  db: Db;
  client: PublicClient;
  config: ChainConfig;
  prices: PriceProvider;
  log?: (line: string) => void;
  /** Where a watcher with nothing processed yet starts (default: the node's head). */
  startBlock?: bigint;
}

export interface PassResult {
  /** The last block processed after the pass (null: the node has no block to read yet). */
  lastBlock: bigint | null;
  blocks: number;
  transfersSeen: number;
  credited: number;
  /** The block the chain forked after, when a reorganisation was undone in this pass. */
  reorgForkedAfter: bigint | null;
}

export interface SeenTransfer {
  txHash: string;
  logIndex: number;
  to: string;
  currency: string;
  amount: string;
}

/**
 * One pass of the chain watcher: undoes blocks the node no longer has, reads the blocks after the last
 * one processed (at most `chain.watcher.maxBlocksPerPass`), records each transfer to a user's deposit
 * address, then credits those with enough confirmations. Everything it writes is keyed by block
 * number and hash or by (chain, tx, log), so a pass repeated, interrupted or run after a restart
 * changes nothing twice; the watcher role runs it in a loop under a lease.
 */
export async function watchOnce(deps: WatcherDeps): Promise<PassResult> {
  const { db, client, config } = deps;
  const head = await client.getBlockNumber({ cacheTime: 0 });
  let last = await lastProcessed(db, config.network);
  let reorgForkedAfter: bigint | null = null;
  if (last !== null) {
    const fork = await findFork(deps, last.number, head);
    if (fork !== last.number) {
      await undoAfter(deps, fork);
      reorgForkedAfter = fork;
      last = fork < 0n ? null : { number: fork, hash: (await storedHash(db, config.network, fork)) ?? "" };
    }
  }
  const from = last === null ? (deps.startBlock ?? head) : last.number + 1n;
  const maxBlocks = BigInt(await getPolicy(db, "chain.watcher.maxBlocksPerPass"));
  const to = head < from + maxBlocks - 1n ? head : from + maxBlocks - 1n;
  let blocks = 0;
  let transfersSeen = 0;
  let lastBlock = last?.number ?? null;
  for (let n = from; n <= to; n++) {
    const seen = await processBlock(deps, n, lastBlock === null ? null : (last?.hash ?? null));
    if (seen === null) {
      // The block does not follow the one processed before it: a reorganisation under our feet. The
      // next pass finds the fork and undoes it.
      break;
    }
    last = { number: n, hash: seen.hash };
    lastBlock = n;
    blocks += 1;
    transfersSeen += seen.transfers;
  }
  const credited = lastBlock === null ? 0 : await settleConfirmations(deps, lastBlock);
  if (lastBlock !== null) {
    await db
      .delete(chainBlocks)
      .where(and(eq(chainBlocks.network, config.network), lt(chainBlocks.number, lastBlock - KEEP_BLOCKS)));
  }
  return { lastBlock, blocks, transfersSeen, credited, reorgForkedAfter };
}

async function lastProcessed(db: DbOrTx, network: string): Promise<{ number: bigint; hash: string } | null> {
  const [row] = await db
    .select({ number: chainBlocks.number, hash: chainBlocks.hash })
    .from(chainBlocks)
    .where(eq(chainBlocks.network, network))
    .orderBy(desc(chainBlocks.number))
    .limit(1);
  return row ?? null;
}

async function storedHash(db: DbOrTx, network: string, n: bigint): Promise<string | null> {
  const [row] = await db
    .select({ hash: chainBlocks.hash })
    .from(chainBlocks)
    .where(and(eq(chainBlocks.network, network), eq(chainBlocks.number, n)));
  return row?.hash ?? null;
}

/** The highest processed block the node still has (−1 when none is). */
async function findFork(deps: WatcherDeps, last: bigint, head: bigint): Promise<bigint> {
  const stored = await deps.db
    .select({ number: chainBlocks.number, hash: chainBlocks.hash })
    .from(chainBlocks)
    .where(and(eq(chainBlocks.network, deps.config.network), lt(chainBlocks.number, last + 1n)))
    .orderBy(desc(chainBlocks.number));
  for (const block of stored) {
    if (block.number > head) {
      continue;
    }
    const onNode = await deps.client.getBlock({ blockNumber: block.number });
    if (onNode.hash === block.hash) {
      return block.number;
    }
  }
  return -1n;
}

/**
 * Undoes the processed blocks after `fork`: their transfers not yet credited become orphaned (their
 * deposits back to 0 confirmations); a credited one stays credited, never again, and raises an alert
 * for operators, since the coins it credited may no longer be there.
 */
async function undoAfter(deps: WatcherDeps, fork: bigint): Promise<void> {
  const { db, config } = deps;
  await db.transaction(async (tx) => {
    const affected = await tx
      .select()
      .from(chainTransfers)
      .where(
        and(
          eq(chainTransfers.network, config.network),
          isNotNull(chainTransfers.blockNumber),
          gt(chainTransfers.blockNumber, fork),
        ),
      )
      .orderBy(asc(chainTransfers.id))
      .for("update");
    for (const t of affected) {
      if (t.status === "credited") {
        await tx
          .insert(chainAlerts)
          .values({
            network: config.network,
            kind: "reorg_after_credit",
            transferId: t.id,
            details: {
              txHash: t.txHash,
              logIndex: t.logIndex,
              block: String(t.blockNumber),
              blockHash: t.blockHash,
            },
          })
          .onConflictDoNothing();
        await tx
          .update(chainTransfers)
          .set({ blockNumber: null, blockHash: null })
          .where(eq(chainTransfers.id, t.id));
        deps.log?.(
          `ALERT: credited deposit ${t.txHash}:${t.logIndex} was in replaced block ${t.blockNumber}`,
        );
        continue;
      }
      if (t.status === "confirming" || t.status === "below_minimum") {
        await transition(tx, {
          machine: chainTransferMachine,
          table: chainTransfers,
          id: t.id,
          from: t.status,
          to: "orphaned",
          by: "system",
          set: { blockNumber: null, blockHash: null },
        });
        if (t.depositId !== null) {
          await setChainDepositConfirmations(tx, t.depositId, 0);
        }
      }
    }
    await tx
      .delete(chainBlocks)
      .where(and(eq(chainBlocks.network, config.network), gt(chainBlocks.number, fork)));
  });
  deps.log?.(`chain ${config.network}: blocks after ${fork} were replaced and what they held undone`);
}

/** Reads block n and records it with what it holds; null when it does not follow `parentHash`. */
async function processBlock(
  deps: WatcherDeps,
  n: bigint,
  parentHash: string | null,
): Promise<{ hash: string; transfers: number } | null> {
  const { db, client, config } = deps;
  const block = await client.getBlock({ blockNumber: n, includeTransactions: true });
  if (!block.hash) {
    return null;
  }
  if (parentHash !== null && block.parentHash !== parentHash) {
    return null;
  }
  const seen: SeenTransfer[] = [];
  for (const t of block.transactions) {
    if (t.to && t.value > 0n) {
      seen.push({
        txHash: t.hash,
        logIndex: NATIVE_LOG_INDEX,
        to: t.to.toLowerCase(),
        currency: config.nativeCurrency,
        amount: formatUnits(t.value, EVM_NATIVE_DECIMALS),
      });
    }
  }
  if (config.tokens.length > 0) {
    const logs = await client.getLogs({
      address: config.tokens.map((t) => t.address as Address),
      event: TRANSFER,
      blockHash: block.hash,
    });
    for (const l of logs) {
      const token = config.tokens.find((t) => t.address === l.address.toLowerCase());
      if (!token || !l.args.to || l.args.value === undefined || l.args.value === 0n || l.logIndex === null) {
        continue;
      }
      seen.push({
        txHash: l.transactionHash as string,
        logIndex: l.logIndex,
        to: l.args.to.toLowerCase(),
        currency: token.currency,
        amount: formatUnits(l.args.value, token.decimals),
      });
    }
  }
  const owners = await ownersOf(
    db,
    config.network,
    seen.map((s) => s.to),
  );
  let mine = seen.filter((s) => owners.has(s.to));
  // The hot wallet's gas top-ups of a sweep go to deposit addresses too: the platform's own coins
  // (booked by the sweep), never a user's deposit.
  const ownTopUps = await sweepTopUpHashes(
    db,
    config.network,
    mine.map((s) => s.txHash),
  );
  mine = mine.filter((s) => !ownTopUps.has(s.txHash));
  // A native transfer counts only when its transaction succeeded (a reverted one moved nothing).
  const native = mine.filter((s) => s.logIndex === NATIVE_LOG_INDEX);
  if (native.length > 0) {
    const failed = new Set<string>();
    for (const s of native) {
      const receipt = await client.getTransactionReceipt({ hash: s.txHash as `0x${string}` });
      if (receipt.status !== "success") {
        failed.add(s.txHash);
      }
    }
    mine = mine.filter((s) => !(s.logIndex === NATIVE_LOG_INDEX && failed.has(s.txHash)));
  }
  const [minimums, confirmationsPolicy] = await Promise.all([
    getPolicy(db, "funding.deposit.minimums"),
    getPolicy(db, "chain.deposit.confirmations"),
  ]);
  await db.transaction(async (tx) => {
    // Two passes at once (a lease handed over mid-pass) record the block once.
    const inserted = await tx
      .insert(chainBlocks)
      .values({
        network: config.network,
        number: n,
        hash: block.hash as string,
        parentHash: block.parentHash,
      })
      .onConflictDoNothing()
      .returning({ number: chainBlocks.number });
    if (inserted.length === 0) {
      return;
    }
    // A transfer recorded at this height from another block (a user's claim read before the watcher
    // got here, on a branch that lost) was never in the chain the watcher follows.
    const stale = await tx
      .select({ id: chainTransfers.id, status: chainTransfers.status, depositId: chainTransfers.depositId })
      .from(chainTransfers)
      .where(
        and(
          eq(chainTransfers.network, config.network),
          eq(chainTransfers.blockNumber, n),
          ne(chainTransfers.blockHash, block.hash as string),
          inArray(chainTransfers.status, ["confirming", "below_minimum"]),
        ),
      )
      .orderBy(asc(chainTransfers.id));
    for (const t of stale) {
      await transition(tx, {
        machine: chainTransferMachine,
        table: chainTransfers,
        id: t.id,
        from: t.status as "confirming" | "below_minimum",
        to: "orphaned",
        by: "system",
        set: { blockNumber: null, blockHash: null },
      });
      if (t.depositId !== null) {
        await setChainDepositConfirmations(tx, t.depositId, 0);
      }
    }
    for (const s of mine) {
      const owner = owners.get(s.to);
      if (!owner) {
        continue;
      }
      const required = requiredConfirmations(confirmationsPolicy, config.network, s.currency);
      const belowMinimum = new MoneyDecimal(s.amount).lessThan(minimums[s.currency] ?? "0");
      await recordTransfer(tx, config, s, owner.userId, n, block.hash as string, required, belowMinimum);
    }
  });
  return { hash: block.hash, transfers: mine.length };
}

export function requiredConfirmations(
  policy: Record<string, Record<string, number>>,
  network: string,
  currency: string,
): number {
  return policy[network]?.[currency] ?? 12;
}

export async function recordTransfer(
  tx: DbOrTx,
  config: ChainConfig,
  s: SeenTransfer,
  userId: number,
  blockNumber: bigint,
  blockHash: string,
  required: number,
  belowMinimum: boolean,
): Promise<void> {
  const [existing] = await tx
    .select()
    .from(chainTransfers)
    .where(
      and(
        eq(chainTransfers.network, config.network),
        eq(chainTransfers.txHash, s.txHash),
        eq(chainTransfers.logIndex, s.logIndex),
      ),
    )
    .for("update");
  if (!existing) {
    const depositId = await recordChainDeposit(tx, {
      userId,
      chain: config.network,
      currency: s.currency,
      amount: s.amount,
      txHash: s.txHash,
      logIndex: s.logIndex,
      confirmations: 1,
      confirmationsRequired: required,
    });
    if (belowMinimum) {
      await refuseChainDeposit(tx, depositId);
    }
    await tx.insert(chainTransfers).values({
      network: config.network,
      txHash: s.txHash,
      logIndex: s.logIndex,
      blockNumber,
      blockHash,
      userId,
      address: s.to,
      currency: s.currency,
      amount: s.amount,
      status: belowMinimum ? "below_minimum" : "confirming",
      depositId,
    });
    return;
  }
  // The same transfer in another block (it was orphaned by a reorganisation): the same deposit.
  if (existing.status === "orphaned") {
    await transition(tx, {
      machine: chainTransferMachine,
      table: chainTransfers,
      id: existing.id,
      from: "orphaned",
      to: belowMinimum ? "below_minimum" : "confirming",
      by: "system",
      set: { blockNumber, blockHash },
    });
    if (existing.depositId !== null) {
      await setChainDepositConfirmations(tx, existing.depositId, 1);
    }
    return;
  }
  await tx.update(chainTransfers).set({ blockNumber, blockHash }).where(eq(chainTransfers.id, existing.id));
}

/**
 * Updates the confirmations of every transfer still confirming, and credits those with enough: the
 * transfer moves confirming → credited and the funding deposit is credited in the same transaction.
 */
async function settleConfirmations(deps: WatcherDeps, lastBlock: bigint): Promise<number> {
  const { db, config, prices } = deps;
  const policy = await getPolicy(db, "chain.deposit.confirmations");
  const pending = await db
    .select()
    .from(chainTransfers)
    .where(and(eq(chainTransfers.network, config.network), eq(chainTransfers.status, "confirming")))
    .orderBy(asc(chainTransfers.blockNumber), asc(chainTransfers.id));
  let credited = 0;
  const waiting: { depositId: number; confirmations: number }[] = [];
  for (const t of pending) {
    if (t.blockNumber === null || t.depositId === null) {
      continue;
    }
    const confirmations = Number(lastBlock - t.blockNumber + 1n);
    const required = requiredConfirmations(policy, config.network, t.currency);
    if (confirmations < required) {
      waiting.push({ depositId: t.depositId, confirmations });
      continue;
    }
    const depositId = t.depositId;
    const done = await db.transaction(async (tx) => {
      const moved = await transition(tx, {
        machine: chainTransferMachine,
        table: chainTransfers,
        id: t.id,
        from: "confirming",
        to: "credited",
        by: "system",
        set: { creditedAt: new Date() },
      });
      if (!moved) {
        return false;
      }
      await creditChainDeposit(tx, prices, {
        depositId,
        custodyAccount: custodyAccount(config.network, "deposits"),
        confirmations,
      });
      return true;
    });
    if (done) {
      credited += 1;
    }
  }
  if (waiting.length > 0) {
    await db.transaction(async (tx) => {
      for (const w of waiting) {
        await setChainDepositConfirmations(tx, w.depositId, w.confirmations);
      }
    });
  }
  return credited;
}

/** Which of these transactions are gas top-ups of the platform's sweeps. */
async function sweepTopUpHashes(db: DbOrTx, network: string, hashes: string[]): Promise<Set<string>> {
  if (hashes.length === 0) {
    return new Set();
  }
  const rows = await db
    .select({ hash: chainSweeps.topUpHash })
    .from(chainSweeps)
    .where(and(eq(chainSweeps.network, network), inArray(chainSweeps.topUpHash, [...new Set(hashes)])))
    .orderBy(asc(chainSweeps.id));
  return new Set(rows.map((r) => r.hash ?? ""));
}

/** The ledger system account of a chain's coins at one place: users' deposit addresses or the hot wallet. */
export function custodyAccount(network: string, place: "deposits" | "hot"): `chain_custody:${string}` {
  return `chain_custody:${network}:${place}`;
}

/** An operator marks an alert looked into (audited); false when it was not open. */
export async function resolveChainAlert(db: Db, alertId: number, actor: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const resolved = await tx
      .update(chainAlerts)
      .set({ resolvedAt: new Date(), resolvedBy: actor })
      .where(and(eq(chainAlerts.id, alertId), isNull(chainAlerts.resolvedAt)))
      .returning({ id: chainAlerts.id, transferId: chainAlerts.transferId });
    if (resolved.length === 0) {
      return false;
    }
    await recordAudit(tx, {
      actor,
      action: "chain-alert.resolve",
      subject: String(alertId),
      details: { transferId: resolved[0]?.transferId },
    });
    return true;
  });
}

/** Operator alerts not yet resolved, newest first. */
export async function listOpenChainAlerts(db: DbOrTx, network: string) {
  return db
    .select()
    .from(chainAlerts)
    .where(and(eq(chainAlerts.network, network), isNull(chainAlerts.resolvedAt)))
    .orderBy(desc(chainAlerts.createdAt), desc(chainAlerts.id));
}
