import { MoneyDecimal } from "@northstar/shared/money";
import { and, desc, eq, gte, sql } from "drizzle-orm";
import {
  type Address,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  keccak256,
  type PublicClient,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
} from "viem";
import type { Db, DbOrTx } from "../db/client.ts";
import {
  advanceHotWalletWithdrawal,
  failHotWalletWithdrawal,
  listHotWalletWork,
  lockWithdrawalForPayout,
} from "../funding/index.ts";
import { getPolicy } from "../policy/index.ts";
import { gasPaid, hotCustody, postGas } from "./custody.ts";
import { hotWalletNonces, hotWalletPayouts, hotWalletTransactions } from "./hot-wallet.table.ts";
import type { HotWalletSigner } from "./hot-wallet.ts";

/**
 * A chain the hot wallet pays on: its chain code (the withdrawal's `chain`, e.g. ERC20), the node's
 * client, the native currency and the tokens (ERC20 contracts) it sends.
 */
export interface HotWalletNetwork {
  chain: string;
  chainId: number;
  client: PublicClient;
  nativeCurrency: string;
  nativeDecimals: number;
  tokens: Record<string, { address: Address; decimals: number }>;
}

export interface HotWallet {
  network: HotWalletNetwork;
  signer: HotWalletSigner;
  /** Sends a signed transaction; tests replace it to simulate a crash between signing and sending. */
  send?: (raw: Hex) => Promise<void>;
}

/** Whether this wallet pays a withdrawal of this currency on this chain. */
export function paysWithdrawal(
  network: Pick<HotWalletNetwork, "chain" | "nativeCurrency" | "tokens">,
  w: { currency: string; chain: string | null },
) {
  return w.chain === network.chain && (w.currency === network.nativeCurrency || w.currency in network.tokens);
}

/** Confirmations a payout waits for on this chain in this currency (policy). */
export async function payoutConfirmations(db: DbOrTx, chain: string, currency: string): Promise<number> {
  const policy = await getPolicy(db, "chain.withdraw.confirmations");
  return policy.byChain[chain]?.[currency] ?? policy.default;
}

export type PayoutStep =
  | { state: "awaiting_release" }
  | { state: "broadcast"; hash: Hex; nonce: number }
  | { state: "confirming"; hash: Hex; confirmations: number; required: number }
  | { state: "success"; hash: Hex; confirmations: number }
  | { state: "failed"; hash: Hex }
  | { state: "idle"; status: string };

/**
 * Moves one withdrawal the hot wallet pays as far as it can go now; safe to run any number of times
 * and concurrently (the withdrawal id is the business key): a queued one is signed (or sent to the
 * operator over the daily limit) and sent; a sent one is sent again if the node lost it, replaced at
 * a higher fee when stuck, and followed to N confirmations (success) or a revert (failed, refunded).
 */
export async function stepHotWalletWithdrawal(
  db: Db,
  wallet: HotWallet,
  withdrawalId: number,
  now: Date = new Date(),
): Promise<PayoutStep> {
  const [w] = await db.transaction(async (tx) => [await lockWithdrawalForPayout(tx, withdrawalId)]);
  if (!w || !paysWithdrawal(wallet.network, w)) {
    return { state: "idle", status: w?.status ?? "missing" };
  }
  if (w.status === "queued") {
    const signed = await signPayout(db, wallet, withdrawalId, now);
    if (signed.state !== "broadcast") {
      return signed;
    }
    await sendRaw(wallet, signed.raw);
    return { state: "broadcast", hash: signed.hash, nonce: signed.nonce };
  }
  if (w.status === "broadcast" || w.status === "confirming") {
    return followPayout(db, wallet, withdrawalId, now);
  }
  return { state: "idle", status: w.status };
}

/** Every withdrawal the hot wallet still has work on, by id, for a sweep after a restart. */
export async function hotWalletWork(db: DbOrTx): Promise<number[]> {
  return (await listHotWalletWork(db)).map((row) => row.id);
}

/** An amount in a currency's smallest units; one finer than the currency's decimals is refused. */
export function toBaseUnits(amount: string, decimals: number): bigint {
  const scaled = new MoneyDecimal(amount).times(new MoneyDecimal(10).pow(decimals));
  if (!scaled.isInteger() || scaled.isNegative()) {
    throw new Error(`amount ${amount} does not fit ${decimals} decimals`);
  }
  return BigInt(scaled.toFixed(0));
}

type Fees = { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint };

/** Fee caps for a new transaction: twice the latest base fee plus the node's suggested tip. */
export async function currentFees(client: PublicClient): Promise<Fees> {
  const block = await client.getBlock({ blockTag: "latest" });
  const base = block.baseFeePerGas ?? (await client.getGasPrice());
  let tip: bigint;
  try {
    tip = BigInt(await client.request({ method: "eth_maxPriorityFeePerGas" }));
  } catch {
    tip = 1_000_000_000n;
  }
  return { maxFeePerGas: base * 2n + tip, maxPriorityFeePerGas: tip };
}

/**
 * The wallet's next nonce under a row lock (created from the chain's pending count on first use).
 * The lock holds until the caller's transaction ends, so payouts of one wallet sign one at a time;
 * `take` moves the counter on, in the same transaction as whatever stores the signed bytes.
 */
export async function lockHotWalletNonce(
  tx: DbOrTx,
  chain: string,
  address: Address,
  chainPending: () => Promise<number>,
): Promise<{ next: number; take: () => Promise<number> }> {
  const where = and(eq(hotWalletNonces.chain, chain), eq(hotWalletNonces.address, address));
  const lock = () =>
    tx.select({ next: hotWalletNonces.nextNonce }).from(hotWalletNonces).where(where).for("update");
  let [row] = await lock();
  if (!row) {
    await tx
      .insert(hotWalletNonces)
      .values({ chain, address, nextNonce: await chainPending() })
      .onConflictDoNothing();
    [row] = await lock();
  }
  if (!row) {
    throw new Error(`no nonce row for ${chain}`);
  }
  const next = row.next;
  return {
    next,
    take: async () => {
      await tx
        .update(hotWalletNonces)
        .set({ nextNonce: next + 1, updatedAt: sql`now()` })
        .where(where);
      return next;
    },
  };
}

function startOfUtcDay(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

/**
 * Whether sending `amount` more would take the day's payouts in this currency on this chain past the
 * policy's daily hot-wallet limit. Called under the nonce lock, so concurrent payouts count each other.
 */
async function overDailyLimit(tx: DbOrTx, chain: string, currency: string, amount: string, now: Date) {
  const limit = (await getPolicy(tx, "chain.withdraw.dailyLimit"))[currency];
  if (limit === undefined) {
    return false;
  }
  const [sent] = await tx
    .select({ total: sql<string>`coalesce(sum(${hotWalletPayouts.amount}), 0)::text` })
    .from(hotWalletPayouts)
    .where(
      and(
        eq(hotWalletPayouts.chain, chain),
        eq(hotWalletPayouts.currency, currency),
        gte(hotWalletPayouts.createdAt, startOfUtcDay(now)),
      ),
    );
  return new MoneyDecimal(sent?.total ?? "0").plus(amount).greaterThan(limit);
}

/** The transaction that pays `received` of the currency to the address. */
function payoutCall(network: HotWalletNetwork, currency: string, to: Address, received: string) {
  const token = network.tokens[currency];
  if (token) {
    return {
      to: token.address,
      value: 0n,
      data: encodeFunctionData({
        abi: erc20Abi,
        functionName: "transfer",
        args: [to, toBaseUnits(received, token.decimals)],
      }),
      kind: "token" as const,
    };
  }
  return {
    to,
    value: toBaseUnits(received, network.nativeDecimals),
    data: undefined,
    kind: "native" as const,
  };
}

/**
 * Signs a queued withdrawal: in one transaction, under the withdrawal's and the nonce's row locks,
 * the daily limit is checked, the nonce taken, and the signed bytes stored with the move to
 * `broadcast`. Nothing is sent here; what is stored is what goes out, however often it is sent.
 */
async function signPayout(db: Db, wallet: HotWallet, withdrawalId: number, now: Date) {
  const { network, signer } = wallet;
  const fees = await currentFees(network.client);
  const signedAtBlock = Number(await network.client.getBlockNumber({ cacheTime: 0 }));
  const chainPending = () =>
    network.client.getTransactionCount({ address: signer.address, blockTag: "pending" });
  return db.transaction(async (tx) => {
    const w = await lockWithdrawalForPayout(tx, withdrawalId);
    if (w.status !== "queued" || !w.address || !w.chain) {
      return { state: "idle" as const, status: w.status };
    }
    const nonces = await lockHotWalletNonce(tx, network.chain, signer.address, chainPending);
    if (w.releasedBy === null && (await overDailyLimit(tx, network.chain, w.currency, w.received, now))) {
      await advanceHotWalletWithdrawal(tx, {
        id: w.id,
        from: "queued",
        to: "awaiting_release",
        custody: hotCustody(network.chain),
      });
      return { state: "awaiting_release" as const };
    }
    const nonce = await nonces.take();
    const call = payoutCall(network, w.currency, w.address as Address, w.received);
    const gasLimits = await getPolicy(tx, "chain.withdraw.gasLimits");
    const gas = BigInt(call.kind === "token" ? gasLimits.token : gasLimits.native);
    const raw = await signer.signTransaction({
      type: "eip1559",
      chainId: network.chainId,
      nonce,
      to: call.to,
      value: call.value,
      ...(call.data ? { data: call.data } : {}),
      gas,
      ...fees,
    });
    const hash = keccak256(raw);
    await tx.insert(hotWalletPayouts).values({
      withdrawalId: w.id,
      chain: network.chain,
      fromAddress: signer.address,
      toAddress: w.address,
      currency: w.currency,
      amount: w.received,
      nonce,
      createdAt: now,
    });
    await tx.insert(hotWalletTransactions).values({
      withdrawalId: w.id,
      attempt: 1,
      hash,
      raw,
      gas: gas.toString(),
      maxFeePerGas: fees.maxFeePerGas.toString(),
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas.toString(),
      signedAtBlock,
      createdAt: now,
    });
    await advanceHotWalletWithdrawal(tx, {
      id: w.id,
      from: "queued",
      to: "broadcast",
      custody: hotCustody(network.chain),
      progress: {
        txHash: hash,
        confirmations: 0,
        confirmationsRequired: await payoutConfirmations(tx, network.chain, w.currency),
      },
    });
    return { state: "broadcast" as const, raw, hash, nonce };
  });
}

/**
 * Errors a node gives for bytes it has already seen or already included, or (a development node that
 * mines on receipt) included and reverted: the send is done, and the receipt tells the rest.
 */
const SENT =
  /already known|already imported|known transaction|nonce too low|already exists|VM Exception while processing transaction: revert/i;

function alreadySent(error: unknown) {
  const text =
    error instanceof Error ? `${error.message} ${(error as { details?: string }).details ?? ""}` : "";
  return SENT.test(text);
}

async function sendRaw(wallet: HotWallet, raw: Hex) {
  if (wallet.send) {
    return wallet.send(raw);
  }
  return sendSigned(wallet.network.client, raw);
}

/**
 * Sends signed bytes; a node that already has them (or has mined them) is not an error, whatever
 * it answers to the second copy (some check the sender's funds before the nonce).
 */
export async function sendSigned(client: PublicClient, raw: Hex) {
  try {
    await client.sendRawTransaction({ serializedTransaction: raw });
  } catch (error) {
    if (!alreadySent(error) && !(await nodeKnows(client, keccak256(raw)))) {
      throw error;
    }
  }
}

async function receiptOf(client: PublicClient, hash: Hex) {
  try {
    return await client.getTransactionReceipt({ hash });
  } catch (error) {
    if (error instanceof TransactionReceiptNotFoundError) {
      return null;
    }
    throw error;
  }
}

export async function nodeKnows(client: PublicClient, hash: Hex) {
  try {
    await client.getTransaction({ hash });
    return true;
  } catch (error) {
    if (error instanceof TransactionNotFoundError) {
      return false;
    }
    throw error;
  }
}

/** The larger of two wei amounts (Math.max takes numbers, not bigints). */
function larger(a: bigint, b: bigint): bigint {
  return a >= b ? a : b;
}

/** Raises a fee cap by `percent`, rounding up, so the node takes the replacement. */
function bumped(value: bigint, percent: number) {
  return (value * BigInt(100 + percent) + 99n) / 100n;
}

async function followPayout(db: Db, wallet: HotWallet, withdrawalId: number, now: Date): Promise<PayoutStep> {
  const { client } = wallet.network;
  const attempts = await db
    .select()
    .from(hotWalletTransactions)
    .where(eq(hotWalletTransactions.withdrawalId, withdrawalId))
    .orderBy(desc(hotWalletTransactions.attempt));
  const latest = attempts[0];
  if (!latest) {
    return { state: "idle", status: "unsigned" };
  }
  // Any attempt may be the one mined (a replacement and its original share the nonce); the first
  // with a receipt is it.
  for (const attempt of attempts) {
    const receipt = await receiptOf(client, attempt.hash as Hex);
    if (!receipt) {
      continue;
    }
    const head = await client.getBlockNumber();
    const confirmations = Number(head - receipt.blockNumber + 1n);
    return db.transaction(async (tx) => {
      const w = await lockWithdrawalForPayout(tx, withdrawalId);
      if (w.status !== "broadcast" && w.status !== "confirming") {
        return { state: "idle" as const, status: w.status };
      }
      const required = w.confirmationsRequired ?? (await payoutConfirmations(tx, w.chain ?? "", w.currency));
      const progress = { txHash: receipt.transactionHash, confirmations, confirmationsRequired: required };
      const custody = hotCustody(wallet.network.chain);
      if (confirmations >= required) {
        // Mined, reverted or not, the transaction's gas left the hot wallet.
        const gas = {
          network: wallet.network.chain,
          nativeCurrency: wallet.network.nativeCurrency,
          place: "hot" as const,
          hash: receipt.transactionHash,
          fee: gasPaid(receipt),
          reference: { type: "withdrawal", id: w.id },
        };
        if (receipt.status === "reverted") {
          if (await failHotWalletWithdrawal(tx, { id: w.id, from: w.status, progress })) {
            await postGas(tx, gas);
          }
          return { state: "failed" as const, hash: receipt.transactionHash };
        }
        if (
          await advanceHotWalletWithdrawal(tx, { id: w.id, from: w.status, to: "success", progress, custody })
        ) {
          await postGas(tx, gas);
        }
        return { state: "success" as const, hash: receipt.transactionHash, confirmations };
      }
      await advanceHotWalletWithdrawal(tx, { id: w.id, from: w.status, to: "confirming", progress, custody });
      return { state: "confirming" as const, hash: receipt.transactionHash, confirmations, required };
    });
  }
  // Not included. A block that held it may have been replaced: back to broadcast.
  const [w] = await db.transaction(async (tx) => [await lockWithdrawalForPayout(tx, withdrawalId)]);
  if (w?.status === "confirming") {
    await db.transaction((tx) =>
      advanceHotWalletWithdrawal(tx, {
        id: withdrawalId,
        from: "confirming",
        to: "broadcast",
        progress: { txHash: latest.hash, confirmations: 0 },
        custody: hotCustody(wallet.network.chain),
      }),
    );
  }
  const [stuckSeconds, stuckBlocks] = await Promise.all([
    getPolicy(db, "chain.withdraw.stuckSeconds"),
    getPolicy(db, "chain.withdraw.stuckAfterBlocks"),
  ]);
  const head = await client.getBlockNumber({ cacheTime: 0 });
  const blocksWaited = latest.signedAtBlock === null ? 0 : Number(head) - latest.signedAtBlock;
  if (now.getTime() - latest.createdAt.getTime() >= stuckSeconds * 1000 || blocksWaited >= stuckBlocks) {
    return replacePayout(db, wallet, withdrawalId, latest.attempt, now);
  }
  if (!(await nodeKnows(client, latest.hash as Hex))) {
    await sendRaw(wallet, latest.raw as Hex);
  }
  const payout = await payoutOf(db, withdrawalId);
  return { state: "broadcast", hash: latest.hash as Hex, nonce: payout.nonce };
}

async function payoutOf(db: DbOrTx, withdrawalId: number) {
  const [payout] = await db
    .select()
    .from(hotWalletPayouts)
    .where(eq(hotWalletPayouts.withdrawalId, withdrawalId));
  if (!payout) {
    throw new Error(`withdrawal ${withdrawalId} has no payout`);
  }
  return payout;
}

/**
 * Replaces a stuck payout: the same nonce, call and gas, both fee caps raised by the policy's
 * percentage (or to the network's current level, if higher). Stored before it is sent, like the
 * first; the withdrawal shows the newest hash and keeps every earlier one.
 */
async function replacePayout(
  db: Db,
  wallet: HotWallet,
  withdrawalId: number,
  seenAttempt: number,
  now: Date,
) {
  const { network, signer } = wallet;
  const market = await currentFees(network.client);
  const signedAtBlock = Number(await network.client.getBlockNumber({ cacheTime: 0 }));
  const result = await db.transaction(async (tx) => {
    const w = await lockWithdrawalForPayout(tx, withdrawalId);
    if (w.status !== "broadcast" || !w.address) {
      return null;
    }
    const [latest] = await tx
      .select()
      .from(hotWalletTransactions)
      .where(eq(hotWalletTransactions.withdrawalId, withdrawalId))
      .orderBy(desc(hotWalletTransactions.attempt))
      .limit(1);
    if (!latest || latest.attempt !== seenAttempt) {
      return null;
    }
    const payout = await payoutOf(tx, withdrawalId);
    const percent = await getPolicy(tx, "chain.withdraw.feeBumpPercent");
    const maxPriorityFeePerGas = larger(
      bumped(BigInt(latest.maxPriorityFeePerGas), percent),
      market.maxPriorityFeePerGas,
    );
    const maxFeePerGas = larger(
      larger(bumped(BigInt(latest.maxFeePerGas), percent), market.maxFeePerGas),
      maxPriorityFeePerGas,
    );
    const call = payoutCall(network, w.currency, w.address as Address, w.received);
    const gas = BigInt(latest.gas);
    const raw = await signer.signTransaction({
      type: "eip1559",
      chainId: network.chainId,
      nonce: payout.nonce,
      to: call.to,
      value: call.value,
      ...(call.data ? { data: call.data } : {}),
      gas,
      maxFeePerGas,
      maxPriorityFeePerGas,
    });
    const hash = keccak256(raw);
    await tx.insert(hotWalletTransactions).values({
      withdrawalId,
      attempt: latest.attempt + 1,
      hash,
      raw,
      gas: gas.toString(),
      maxFeePerGas: maxFeePerGas.toString(),
      maxPriorityFeePerGas: maxPriorityFeePerGas.toString(),
      signedAtBlock,
      createdAt: now,
    });
    await advanceHotWalletWithdrawal(tx, {
      id: withdrawalId,
      from: "broadcast",
      to: "broadcast",
      progress: { txHash: hash },
      custody: hotCustody(network.chain),
    });
    return { raw, hash, nonce: payout.nonce };
  });
  if (!result) {
    return { state: "idle" as const, status: "replaced elsewhere" };
  }
  await sendRaw(wallet, result.raw);
  return { state: "broadcast" as const, hash: result.hash, nonce: result.nonce };
}

/** Every transaction the hot wallet signed for a withdrawal, oldest first (the last is the one shown). */
export async function listPayoutTransactions(db: DbOrTx, withdrawalId: number) {
  return db
    .select({
      attempt: hotWalletTransactions.attempt,
      hash: hotWalletTransactions.hash,
      maxFeePerGas: hotWalletTransactions.maxFeePerGas,
      maxPriorityFeePerGas: hotWalletTransactions.maxPriorityFeePerGas,
      createdAt: hotWalletTransactions.createdAt,
    })
    .from(hotWalletTransactions)
    .where(eq(hotWalletTransactions.withdrawalId, withdrawalId))
    .orderBy(hotWalletTransactions.attempt);
}
