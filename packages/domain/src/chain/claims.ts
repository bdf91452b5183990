import { normalizeTxHash } from "@northstar/shared/contracts/tx-hash";
import { MoneyDecimal } from "@northstar/shared/money";
import { and, eq } from "drizzle-orm";
import { formatUnits, type Hash, type PublicClient, parseEventLogs } from "viem";
import type { Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { assertRealAccount } from "../funding/index.ts";
import type { User } from "../identity/index.ts";
import { getPolicy } from "../policy/index.ts";
import { depositAddressFor } from "./addresses.ts";
import { chainTransfers } from "./chain.table.ts";
import { type ChainConfig, EVM_NATIVE_DECIMALS } from "./config.ts";
import { NATIVE_LOG_INDEX, recordTransfer, requiredConfirmations, type SeenTransfer } from "./watcher.ts";

const TRANSFER_ABI = [
  {
    type: "event",
    name: "Transfer",
    inputs: [
      { name: "from", type: "address", indexed: true },
      { name: "to", type: "address", indexed: true },
      { name: "value", type: "uint256", indexed: false },
    ],
  },
] as const;

export interface ChainClaim {
  currency: string;
  chain: string;
  amount: string;
  tx_hash: string;
}

/** True when a reported deposit is on the watched chain in a watched currency: the chain checks it. */
export function isWatchedDeposit(
  config: ChainConfig | null,
  input: { chain: string; currency: string },
): boolean {
  return (
    config !== null &&
    config.xpub !== null &&
    input.chain === config.network &&
    (input.currency === config.nativeCurrency || config.tokens.some((t) => t.currency === input.currency))
  );
}

/**
 * A user reports a transfer on the watched chain (today's deposit form): instead of an operator, the
 * chain checks it. The transaction must have succeeded and sent exactly `amount` of the currency to the
 * user's own deposit address; then it is the same deposit the watcher records (found, or recorded now
 * and credited by the watcher after its confirmations). Anything else is refused and changes nothing.
 * Returns the deposit's id.
 */
export async function claimChainDeposit(
  db: Db,
  client: PublicClient,
  config: ChainConfig,
  user: User,
  input: ChainClaim,
): Promise<{ depositId: number }> {
  assertRealAccount(user);
  const channels = await getPolicy(db, "funding.deposit.channels");
  if (!channels.crypto) {
    throw new AppError("RECHARGE_CHANNEL_CLOSED");
  }
  const txHash = normalizeTxHash(input.chain, input.tx_hash);
  if (txHash === null) {
    throw new AppError("TX_HASH_FORMAT", { chain: input.chain }, "tx_hash");
  }
  const minimum = (await getPolicy(db, "funding.deposit.minimums"))[input.currency] ?? "0";
  if (new MoneyDecimal(input.amount).lessThan(minimum)) {
    throw new AppError("DEPOSIT_BELOW_MINIMUM", { min: minimum, currency: input.currency }, "amount");
  }
  const own = await depositAddressFor(db, config, user.id);
  const notFound = () => new AppError("DEPOSIT_TX_NOT_FOUND", { chain: input.chain }, "tx_hash");
  const receipt = await client.getTransactionReceipt({ hash: txHash as Hash }).catch(() => null);
  if (!receipt || receipt.status !== "success") {
    throw notFound();
  }
  const candidates: SeenTransfer[] = [];
  if (input.currency === config.nativeCurrency) {
    const tx = await client.getTransaction({ hash: txHash as Hash });
    if (tx.to && tx.value > 0n) {
      candidates.push({
        txHash,
        logIndex: NATIVE_LOG_INDEX,
        to: tx.to.toLowerCase(),
        currency: config.nativeCurrency,
        amount: formatUnits(tx.value, EVM_NATIVE_DECIMALS),
      });
    }
  } else {
    const token = config.tokens.find((t) => t.currency === input.currency);
    const logs = parseEventLogs({ abi: TRANSFER_ABI, logs: receipt.logs, eventName: "Transfer" });
    for (const l of logs) {
      if (token && l.address.toLowerCase() === token.address) {
        candidates.push({
          txHash,
          logIndex: l.logIndex,
          to: l.args.to.toLowerCase(),
          currency: token.currency,
          amount: formatUnits(l.args.value, token.decimals),
        });
      }
    }
  }
  const match = candidates.find(
    (c) => c.to === own.address && new MoneyDecimal(c.amount).equals(input.amount),
  );
  if (!match) {
    throw new AppError(
      "DEPOSIT_TX_MISMATCH",
      { amount: input.amount, currency: input.currency, chain: input.chain },
      "tx_hash",
    );
  }
  const required = requiredConfirmations(
    await getPolicy(db, "chain.deposit.confirmations"),
    config.network,
    match.currency,
  );
  return db.transaction(async (tx) => {
    await recordTransfer(tx, config, match, user.id, receipt.blockNumber, receipt.blockHash, required, false);
    const [row] = await tx
      .select({ depositId: chainTransfers.depositId })
      .from(chainTransfers)
      .where(
        and(
          eq(chainTransfers.network, config.network),
          eq(chainTransfers.txHash, match.txHash),
          eq(chainTransfers.logIndex, match.logIndex),
        ),
      );
    if (!row?.depositId) {
      throw new Error(`claimed transfer ${match.txHash}:${match.logIndex} has no deposit`);
    }
    return { depositId: row.depositId };
  });
}
