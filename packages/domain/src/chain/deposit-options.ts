import { getAddress } from "viem";
import type { Db } from "../db/client.ts";
import type { User } from "../identity/index.ts";
import { getPolicy } from "../policy/index.ts";
import { depositAddressFor } from "./addresses.ts";
import { type ChainConfig, watchedCurrencies } from "./config.ts";
import { requiredConfirmations } from "./watcher.ts";

interface DepositOption {
  currency: string;
  chain: string;
  address: string;
  memo: string | null;
  minimum: string;
}

/**
 * The deposit page's options for one user: on the watched chain every watched currency goes to the
 * user's own address (allocated on first ask) and says how many confirmations credit it; other chains
 * keep the operators' addresses and the manual path. A demo account, or no xpub, changes nothing.
 */
export async function withChainDepositOptions<T extends { addresses: DepositOption[] }>(
  db: Db,
  config: ChainConfig | null,
  user: User,
  options: T,
): Promise<T & { addresses: (DepositOption & { confirmations: number | null })[] }> {
  const manual = options.addresses.map((a) => ({ ...a, confirmations: null as number | null }));
  if (!config?.xpub || user.kind !== "real") {
    return { ...options, addresses: manual };
  }
  const [own, minimums, confirmations] = await Promise.all([
    depositAddressFor(db, config, user.id),
    getPolicy(db, "funding.deposit.minimums"),
    getPolicy(db, "chain.deposit.confirmations"),
  ]);
  const watched = watchedCurrencies(config).map((currency) => ({
    currency,
    chain: config.network,
    address: getAddress(own.address),
    memo: null,
    minimum: minimums[currency] ?? "0",
    confirmations: requiredConfirmations(confirmations, config.network, currency) as number | null,
  }));
  const others = manual.filter((a) => !watched.some((w) => w.currency === a.currency && w.chain === a.chain));
  const addresses = [...watched, ...others].sort(
    (a, b) => a.currency.localeCompare(b.currency) || a.chain.localeCompare(b.chain),
  );
  return { ...options, addresses };
}
