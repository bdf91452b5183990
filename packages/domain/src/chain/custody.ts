import { MoneyDecimal } from "@northstar/shared/money";
import { asc, eq, or } from "drizzle-orm";
import {
  type Address,
  erc20Abi,
  formatUnits,
  type Hex,
  type PublicClient,
  parseEventLogs,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
} from "viem";
import { recordAudit } from "../audit/index.ts";
import type { Db, DbOrTx } from "../db/client.ts";
import { AppError } from "../errors.ts";
import type { HotWalletCustody } from "../funding/index.ts";
import { postEntry, systemBalance } from "../ledger/index.ts";
import { getPolicy } from "../policy/index.ts";
import { chainAddresses } from "./chain.table.ts";
import { type ChainConfig, EVM_NATIVE_DECIMALS } from "./config.ts";
import { hotWalletNonces } from "./hot-wallet.table.ts";
import { chainSweeps } from "./sweep.table.ts";

/**
 * The chain's coins in the ledger: `chain_custody:<chain>:deposits` (users' deposit addresses) and
 * `chain_custody:<chain>:hot` (the hot wallet) are each minus what is at that place. Gas the platform
 * pays leaves custody for `chain_gas`; coins operators put into the hot wallet come from
 * `chain_funding:<chain>`. So each custody account equals, to the unit, the node's balances there.
 */
export const hotCustody = (network: string): HotWalletCustody => `chain_custody:${network}:hot`;
export const depositsCustody = (network: string) => `chain_custody:${network}:deposits` as const;

/** The gas a mined transaction cost its sender, in the chain's own coin (exact decimal). */
export function gasPaid(receipt: { gasUsed: bigint; effectiveGasPrice: bigint }): string {
  return formatUnits(receipt.gasUsed * receipt.effectiveGasPrice, EVM_NATIVE_DECIMALS);
}

/**
 * Books gas one place paid: the coins left that place for `chain_gas`. Keyed by the transaction's
 * hash, so a receipt seen twice books once.
 */
export async function postGas(
  tx: DbOrTx,
  params: {
    network: string;
    nativeCurrency: string;
    place: "deposits" | "hot";
    hash: string;
    fee: string;
    reference: { type: string; id: number | string };
  },
) {
  if (new MoneyDecimal(params.fee).isZero()) {
    return;
  }
  const custody = params.place === "hot" ? hotCustody(params.network) : depositsCustody(params.network);
  await postEntry(tx, {
    idempotencyKey: `chain-gas:${params.network}:${params.hash}`,
    kind: "chain.gas",
    reference: params.reference,
    postings: [
      { account: { system: custody, book: "real", currency: params.nativeCurrency }, amount: params.fee },
      {
        account: { system: "chain_gas", book: "real", currency: params.nativeCurrency },
        amount: `-${params.fee}`,
      },
    ],
  });
}

export async function receiptOrNull(client: PublicClient, hash: Hex) {
  try {
    return await client.getTransactionReceipt({ hash });
  } catch (error) {
    if (error instanceof TransactionReceiptNotFoundError) {
      return null;
    }
    throw error;
  }
}

export async function transactionOrNull(client: PublicClient, hash: Hex) {
  try {
    return await client.getTransaction({ hash });
  } catch (error) {
    if (error instanceof TransactionNotFoundError) {
      return null;
    }
    throw error;
  }
}

export interface TopUpLine {
  currency: string;
  amount: string;
  /** −1 for the native transfer, else the token log's index. */
  logIndex: number;
}

/**
 * An operator records coins put into the hot wallet from outside: the node must show the transaction
 * succeeded with the chain's deposit confirmations, and what it brought the hot wallet (the native
 * value and the watched tokens' `Transfer` logs to it) moves from `chain_funding:<chain>` into
 * `chain_custody:<chain>:hot`. A sweep's transaction is refused (the sweep books it), and recording
 * the same transaction again books nothing. Audited.
 */
export async function recordHotWalletTopUp(
  db: Db,
  params: {
    config: ChainConfig;
    client: PublicClient;
    hotAddress: Address;
    txHash: string;
    actor: string;
  },
): Promise<{ lines: TopUpLine[]; applied: boolean }> {
  const { config, client } = params;
  const chain = config.network;
  if (!/^0x[0-9a-fA-F]{64}$/.test(params.txHash)) {
    throw new AppError("TX_HASH_FORMAT", { chain }, "chain");
  }
  const hash = params.txHash.toLowerCase() as Hex;
  const hot = params.hotAddress.toLowerCase();
  const [sweep] = await db
    .select({ id: chainSweeps.id })
    .from(chainSweeps)
    .where(or(eq(chainSweeps.sweepHash, hash), eq(chainSweeps.topUpHash, hash)))
    .orderBy(asc(chainSweeps.id))
    .limit(1);
  if (sweep) {
    throw new AppError("HOT_WALLET_TOP_UP_IS_SWEEP", {}, "tx_hash");
  }
  const [receipt, transaction] = await Promise.all([
    receiptOrNull(client, hash),
    transactionOrNull(client, hash),
  ]);
  if (!receipt || !transaction || receipt.status !== "success") {
    throw new AppError("DEPOSIT_TX_NOT_FOUND", { chain }, "chain");
  }
  const [fromDeposit] = await db
    .select({ id: chainAddresses.id })
    .from(chainAddresses)
    .where(eq(chainAddresses.address, transaction.from.toLowerCase()))
    .limit(1);
  if (fromDeposit) {
    throw new AppError("HOT_WALLET_TOP_UP_IS_SWEEP", {}, "tx_hash");
  }
  const lines: TopUpLine[] = [];
  if (transaction.to?.toLowerCase() === hot && transaction.value > 0n) {
    lines.push({
      currency: config.nativeCurrency,
      amount: formatUnits(transaction.value, EVM_NATIVE_DECIMALS),
      logIndex: -1,
    });
  }
  for (const log of parseEventLogs({ abi: erc20Abi, eventName: "Transfer", logs: receipt.logs })) {
    const token = config.tokens.find((t) => t.address === log.address.toLowerCase());
    if (token && log.args.to.toLowerCase() === hot && log.args.value > 0n) {
      lines.push({
        currency: token.currency,
        amount: formatUnits(log.args.value, token.decimals),
        logIndex: log.logIndex,
      });
    }
  }
  if (lines.length === 0) {
    throw new AppError("HOT_WALLET_TOP_UP_EMPTY", { chain }, "tx_hash");
  }
  const policy = await getPolicy(db, "chain.deposit.confirmations");
  const head = await client.getBlockNumber({ cacheTime: 0 });
  const confirmations = Number(head - receipt.blockNumber + 1n);
  const required = Math.max(...lines.map((l) => policy[chain]?.[l.currency] ?? 12));
  if (confirmations < required) {
    throw new AppError("HOT_WALLET_TOP_UP_UNCONFIRMED", { confirmations, required }, "tx_hash");
  }
  return db.transaction(async (tx) => {
    const { applied } = await postEntry(tx, {
      idempotencyKey: `chain-top-up:${chain}:${hash}`,
      kind: "chain.hot_top_up",
      reference: { type: "chain_tx", id: hash },
      postings: lines.flatMap((l) => [
        {
          account: { system: hotCustody(chain), book: "real" as const, currency: l.currency },
          amount: `-${l.amount}`,
        },
        {
          account: { system: `chain_funding:${chain}` as const, book: "real" as const, currency: l.currency },
          amount: l.amount,
        },
      ]),
    });
    if (applied) {
      await recordAudit(tx, {
        actor: params.actor,
        action: "chain.hot_top_up",
        subject: hash,
        details: { chain, hotAddress: hot, lines },
      });
    }
    return { lines, applied };
  });
}

export interface CustodyLine {
  network: string;
  place: "deposits" | "hot";
  currency: string;
  /** What the ledger says is there: minus the custody account's balance. */
  ledger: string;
  /** What the node says is there now. */
  chain: string;
  /** chain − ledger: zero when the books match the chain. */
  difference: string;
}

/**
 * Ledger custody against the chain: for each place (users' deposit addresses, the hot wallet) and
 * each currency, what `chain_custody:<chain>:<place>` says is there and what the node shows now. The
 * hot wallet's addresses are those that ever signed (the nonce rows) and `hotAddress` if given. A
 * deposit still confirming, or one below the minimum (never credited, never swept), is on chain and
 * not in the ledger: it shows as a difference on `deposits`.
 */
export async function custodyReport(
  db: DbOrTx,
  params: { config: ChainConfig; client: PublicClient; hotAddress?: Address | null },
): Promise<CustodyLine[]> {
  const { config, client } = params;
  const network = config.network;
  const deposits = (
    await db
      .select({ address: chainAddresses.address })
      .from(chainAddresses)
      .where(eq(chainAddresses.network, network))
      .orderBy(asc(chainAddresses.derivationIndex))
  ).map((r) => r.address as Address);
  const hotRows = await db
    .select({ address: hotWalletNonces.address })
    .from(hotWalletNonces)
    .where(eq(hotWalletNonces.chain, network))
    .orderBy(asc(hotWalletNonces.address));
  const hot = [
    ...new Set([
      ...hotRows.map((r) => r.address.toLowerCase()),
      ...(params.hotAddress ? [params.hotAddress.toLowerCase()] : []),
    ]),
  ] as Address[];
  const onChain = async (addresses: Address[], currency: string): Promise<string> => {
    const token = config.tokens.find((t) => t.currency === currency);
    let total = 0n;
    for (const address of addresses) {
      total += token
        ? await client.readContract({
            address: token.address,
            abi: erc20Abi,
            functionName: "balanceOf",
            args: [address],
          })
        : await client.getBalance({ address });
    }
    return formatUnits(total, token ? token.decimals : EVM_NATIVE_DECIMALS);
  };
  const lines: CustodyLine[] = [];
  for (const [place, addresses] of [
    ["deposits", deposits],
    ["hot", hot],
  ] as const) {
    const code = place === "hot" ? hotCustody(network) : depositsCustody(network);
    const balances = await systemBalance(db, "real", code);
    for (const currency of [config.nativeCurrency, ...config.tokens.map((t) => t.currency)]) {
      const booked = new MoneyDecimal(balances.find((b) => b.currency === currency)?.balance ?? "0").neg();
      const there = new MoneyDecimal(await onChain(addresses, currency));
      lines.push({
        network,
        place,
        currency,
        ledger: booked.toFixed(),
        chain: there.toFixed(),
        difference: there.minus(booked).toFixed(),
      });
    }
  }
  return lines;
}
