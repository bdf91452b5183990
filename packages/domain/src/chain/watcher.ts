import { MoneyDecimal } from "@northstar/shared/money";
import { type ChainTransferStatus, chainTransferMachine } from "@northstar/shared/state-machines";
import { and, asc, desc, eq, gt, inArray, isNotNull, isNull, lt, ne, sql } from "drizzle-orm";
import { type Address, formatUnits, type PublicClient, parseAbiItem } from "viem";
import { recordAudit } from "../audit/index.ts";
import type { Db, DbOrTx } from "../db/client.ts";
import {
  chainTransferKey,
  creditChainDeposits,
  recordChainDeposits,
  setChainDepositsConfirmations,
} from "../funding/index.ts";
import type { PriceProvider } from "../markets/index.ts";
import { getPolicies } from "../policy/index.ts";
import { type BatchTransition, transitionMany } from "../state/index.ts";
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
  /** Where a watcher with nothing processed yet starts (CHAIN_START_BLOCK; default: the node's head). */
  startBlock?: bigint | undefined;
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
  const [maxBlocksPolicy, minimums, confirmations] = await getPolicies(db, [
    "chain.watcher.maxBlocksPerPass",
    "funding.deposit.minimums",
    "chain.deposit.confirmations",
  ] as const);
  const policy: PassPolicy = { minimums, confirmations };
  const maxBlocks = BigInt(maxBlocksPolicy);
  const to = head < from + maxBlocks - 1n ? head : from + maxBlocks - 1n;
  let blocks = 0;
  let transfersSeen = 0;
  let lastBlock = last?.number ?? null;
  for (let n = from; n <= to; n++) {
    const seen = await processBlock(deps, n, lastBlock === null ? null : (last?.hash ?? null), policy);
    if (seen === null) {
      // The block does not follow the one processed before it: a reorganisation under our feet. The
      // next pass finds the fork and undoes it.
      break;
    }
    if (lastBlock === null) {
      deps.log?.(
        deps.startBlock === undefined
          ? `chain ${config.network}: nothing recorded yet; started at the node's head, block ${n}`
          : `chain ${config.network}: nothing recorded yet; started at block ${n} (CHAIN_START_BLOCK)`,
      );
    }
    last = { number: n, hash: seen.hash };
    lastBlock = n;
    blocks += 1;
    transfersSeen += seen.transfers;
  }
  const credited = lastBlock === null ? 0 : await settleConfirmations(deps, lastBlock, confirmations);
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
      }
    }
    await orphan(
      tx,
      affected
        .filter((t) => t.status === "confirming" || t.status === "below_minimum")
        .map((t) => ({
          id: t.id,
          status: t.status as "confirming" | "below_minimum",
          depositId: t.depositId,
        })),
    );
    await tx
      .delete(chainBlocks)
      .where(and(eq(chainBlocks.network, config.network), gt(chainBlocks.number, fork)));
  });
  deps.log?.(`chain ${config.network}: blocks after ${fork} were replaced and what they held undone`);
}

/** The policy values a pass reads once. */
interface PassPolicy {
  minimums: Record<string, string>;
  confirmations: Record<string, Record<string, number>>;
}

/**
 * Reads block n and records it with what it holds; null when it does not follow `parentHash`. The
 * database work is a fixed number of statements whatever the block holds: one lookup of all its
 * recipients, then in one transaction the block, the stale transfers at its height, and
 * `recordTransfers` for the users' transfers.
 */
async function processBlock(
  deps: WatcherDeps,
  n: bigint,
  parentHash: string | null,
  policy: PassPolicy,
): Promise<{ hash: string; transfers: number } | null> {
  const { db, client, config } = deps;
  const block = await client.getBlock({ blockNumber: n, includeTransactions: true });
  if (!block.hash) {
    return null;
  }
  if (parentHash !== null && block.parentHash !== parentHash) {
    return null;
  }
  const blockHash = block.hash;
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
      blockHash,
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
    const receipts = await Promise.all(
      native.map((s) => client.getTransactionReceipt({ hash: s.txHash as `0x${string}` })),
    );
    const failed = new Set(receipts.filter((r) => r.status !== "success").map((r) => r.transactionHash));
    mine = mine.filter((s) => !(s.logIndex === NATIVE_LOG_INDEX && failed.has(s.txHash as `0x${string}`)));
  }
  await db.transaction(async (tx) => {
    // Two passes at once (a lease handed over mid-pass) record the block once.
    const inserted = await tx
      .insert(chainBlocks)
      .values({ network: config.network, number: n, hash: blockHash, parentHash: block.parentHash })
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
          ne(chainTransfers.blockHash, blockHash),
          inArray(chainTransfers.status, ["confirming", "below_minimum"]),
        ),
      )
      .orderBy(asc(chainTransfers.id));
    await orphan(
      tx,
      stale.map((t) => ({ ...t, status: t.status as "confirming" | "below_minimum" })),
    );
    const rows: TransferAt[] = [];
    for (const s of mine) {
      const owner = owners.get(s.to);
      if (owner) {
        rows.push({
          seen: s,
          userId: owner.userId,
          blockNumber: n,
          blockHash,
          required: requiredConfirmations(policy.confirmations, config.network, s.currency),
          belowMinimum: new MoneyDecimal(s.amount).lessThan(policy.minimums[s.currency] ?? "0"),
        });
      }
    }
    await recordTransfers(tx, config, rows);
  });
  return { hash: blockHash, transfers: mine.length };
}

/**
 * Transfers whose block lost (confirming or below the minimum) become orphaned, in one statement
 * through the state machine; their deposits show 0 confirmations again.
 */
async function orphan(
  tx: DbOrTx,
  transfers: readonly { id: number; status: "confirming" | "below_minimum"; depositId: number | null }[],
): Promise<void> {
  if (transfers.length === 0) {
    return;
  }
  const moved = await transitionMany(tx, {
    machine: chainTransferMachine,
    table: "chain_transfers",
    by: "system",
    columns: { block_number: "bigint", block_hash: "text" },
    updatedAt: false,
    rows: transfers.map((t) => ({
      id: t.id,
      from: t.status,
      to: "orphaned" as const,
      values: { block_number: null, block_hash: null },
    })),
  });
  await setChainDepositsConfirmations(
    tx,
    transfers
      .filter((t) => t.depositId !== null && moved.has(t.id))
      .map((t) => ({ depositId: t.depositId as number, confirmations: 0 })),
  );
}

export function requiredConfirmations(
  policy: Record<string, Record<string, number>>,
  network: string,
  currency: string,
): number {
  return policy[network]?.[currency] ?? 12;
}

/** A transfer to a user's address as seen in one block, with what the policy says of it. */
export interface TransferAt {
  seen: SeenTransfer;
  userId: number;
  blockNumber: bigint;
  blockHash: string;
  required: number;
  belowMinimum: boolean;
}

/** Records one transfer seen in a block (a user's claim): `recordTransfers` of one. */
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
  await recordTransfers(tx, config, [{ seen: s, userId, blockNumber, blockHash, required, belowMinimum }]);
}

/**
 * Records transfers seen in blocks, in a fixed number of statements: the ones already recorded are
 * locked with one query; the new ones get their funding deposits (one insert, below the minimum
 * refused) and their rows (one insert); the known ones move to the block that holds them now (one
 * statement: an orphaned one comes back as confirming or below the minimum, the same deposit).
 */
export async function recordTransfers(
  tx: DbOrTx,
  config: ChainConfig,
  rows: readonly TransferAt[],
): Promise<void> {
  if (rows.length === 0) {
    return;
  }
  const keys = JSON.stringify(rows.map((r) => ({ tx_hash: r.seen.txHash, log_index: r.seen.logIndex })));
  const existing = await tx
    .select({
      id: chainTransfers.id,
      txHash: chainTransfers.txHash,
      logIndex: chainTransfers.logIndex,
      status: chainTransfers.status,
      depositId: chainTransfers.depositId,
    })
    .from(chainTransfers)
    .where(
      and(
        eq(chainTransfers.network, config.network),
        sql`(${chainTransfers.txHash}, ${chainTransfers.logIndex}) in (
          select v.tx_hash, v.log_index
          from jsonb_to_recordset(${keys}::jsonb) as v(tx_hash text, log_index integer))`,
      ),
    )
    .orderBy(asc(chainTransfers.id))
    .for("update");
  const known = new Map(existing.map((e) => [chainTransferKey(e.txHash, e.logIndex), e]));
  const fresh = rows.filter((r) => !known.has(chainTransferKey(r.seen.txHash, r.seen.logIndex)));
  if (fresh.length > 0) {
    const depositIds = await recordChainDeposits(
      tx,
      fresh.map((r) => ({
        userId: r.userId,
        chain: config.network,
        currency: r.seen.currency,
        amount: r.seen.amount,
        txHash: r.seen.txHash,
        logIndex: r.seen.logIndex,
        confirmations: 1,
        confirmationsRequired: r.required,
        refuse: r.belowMinimum,
      })),
    );
    const values = fresh.map((r) => ({
      network: config.network,
      txHash: r.seen.txHash,
      logIndex: r.seen.logIndex,
      blockNumber: r.blockNumber,
      blockHash: r.blockHash,
      userId: r.userId,
      address: r.seen.to,
      currency: r.seen.currency,
      amount: r.seen.amount,
      status: r.belowMinimum ? ("below_minimum" as const) : ("confirming" as const),
      depositId: depositIds.get(chainTransferKey(r.seen.txHash, r.seen.logIndex)) ?? null,
    }));
    // In slices, to stay under PostgreSQL's 65,535 parameters of one statement.
    for (let i = 0; i < values.length; i += INSERT_SLICE) {
      await tx.insert(chainTransfers).values(values.slice(i, i + INSERT_SLICE));
    }
  }
  const moves: BatchTransition<ChainTransferStatus>[] = [];
  const reappeared: number[] = [];
  for (const r of rows) {
    const e = known.get(chainTransferKey(r.seen.txHash, r.seen.logIndex));
    if (!e) {
      continue;
    }
    const status = e.status as ChainTransferStatus;
    // The same transfer in another block (it was orphaned by a reorganisation): the same deposit.
    const to = status === "orphaned" ? (r.belowMinimum ? "below_minimum" : "confirming") : status;
    moves.push({
      id: e.id,
      from: status,
      to,
      values: { block_number: String(r.blockNumber), block_hash: r.blockHash },
    });
    if (status === "orphaned" && e.depositId !== null) {
      reappeared.push(e.id);
    }
  }
  const moved = await transitionMany(tx, {
    machine: chainTransferMachine,
    table: "chain_transfers",
    by: "system",
    columns: { block_number: "bigint", block_hash: "text" },
    updatedAt: false,
    rows: moves,
  });
  await setChainDepositsConfirmations(
    tx,
    existing
      .filter((e) => reappeared.includes(e.id) && moved.has(e.id))
      .map((e) => ({ depositId: e.depositId as number, confirmations: 1 })),
  );
}

/** Rows of one multi-row insert of transfers (11 parameters each). */
const INSERT_SLICE = 2000;

/** Confirming transfers credited in one transaction at most (each credit is its own row lock). */
const CREDIT_BATCH = 500;

/**
 * Updates the confirmations of every transfer still confirming (one statement), and credits those with
 * enough: in one transaction per batch, the transfers move confirming → credited and their funding
 * deposits are credited (`creditChainDeposits`). A batch that fails is tried again one credit per
 * transaction, so one bad credit holds back only itself; each credit happens once whichever way
 * (compare-and-set on both rows and the ledger's key per transfer).
 */
async function settleConfirmations(
  deps: WatcherDeps,
  lastBlock: bigint,
  policy: Record<string, Record<string, number>>,
): Promise<number> {
  const { db, config } = deps;
  const pending = await db
    .select({
      id: chainTransfers.id,
      blockNumber: chainTransfers.blockNumber,
      depositId: chainTransfers.depositId,
      currency: chainTransfers.currency,
    })
    .from(chainTransfers)
    .where(and(eq(chainTransfers.network, config.network), eq(chainTransfers.status, "confirming")))
    .orderBy(asc(chainTransfers.blockNumber), asc(chainTransfers.id));
  const due: Due[] = [];
  const waiting: { depositId: number; confirmations: number }[] = [];
  for (const t of pending) {
    if (t.blockNumber === null || t.depositId === null) {
      continue;
    }
    const confirmations = Number(lastBlock - t.blockNumber + 1n);
    if (confirmations < requiredConfirmations(policy, config.network, t.currency)) {
      waiting.push({ depositId: t.depositId, confirmations });
    } else {
      due.push({ id: t.id, depositId: t.depositId, confirmations });
    }
  }
  await setChainDepositsConfirmations(db, waiting);
  let credited = 0;
  for (let i = 0; i < due.length; i += CREDIT_BATCH) {
    const batch = due.slice(i, i + CREDIT_BATCH);
    try {
      credited += await creditBatch(deps, batch);
    } catch (batchError) {
      deps.log?.(
        `chain ${config.network}: a batch of ${batch.length} credits failed (${batchError instanceof Error ? batchError.message : batchError}); crediting one by one`,
      );
      let firstError: unknown = null;
      for (const one of batch) {
        try {
          credited += await creditBatch(deps, [one]);
        } catch (error) {
          firstError ??= error;
        }
      }
      if (firstError !== null) {
        throw firstError;
      }
    }
  }
  return credited;
}

interface Due {
  id: number;
  depositId: number;
  confirmations: number;
}

/** Credits these transfers in one transaction; returns how many moved to credited. */
async function creditBatch(deps: WatcherDeps, batch: readonly Due[]): Promise<number> {
  const { db, config, prices } = deps;
  return db.transaction(async (tx) => {
    const creditedAt = new Date().toISOString();
    const moved = await transitionMany(tx, {
      machine: chainTransferMachine,
      table: "chain_transfers",
      by: "system",
      columns: { credited_at: "timestamptz" },
      updatedAt: false,
      rows: batch.map((t) => ({
        id: t.id,
        from: "confirming" as const,
        to: "credited" as const,
        values: { credited_at: creditedAt },
      })),
    });
    const items = batch
      .filter((t) => moved.has(t.id))
      .map((t) => ({ depositId: t.depositId, confirmations: t.confirmations }));
    await creditChainDeposits(tx, prices, {
      custodyAccount: custodyAccount(config.network, "deposits"),
      items,
    });
    return items.length;
  });
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
