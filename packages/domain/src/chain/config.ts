import { type Address, type Chain, createPublicClient, http, type PublicClient } from "viem";
import type { DomainEnv } from "../env.ts";

/**
 * The EVM chain the platform watches is named as funding names it everywhere else (deposit
 * addresses, withdrawal chains, transaction hashes): `ERC20`, for Ethereum and its tokens.
 */
export const EVM_NETWORK = "ERC20";
/** The chain's own coin. */
export const EVM_NATIVE_CURRENCY = "ETH";
export const EVM_NATIVE_DECIMALS = 18;

export interface WatchedToken {
  currency: string;
  /** Lower case, as the watcher compares log addresses. */
  address: Address;
  decimals: number;
}

/** One watched EVM chain: where its node is and what the platform takes on it. */
export interface ChainConfig {
  network: string;
  chainId: number;
  rpcUrl: string;
  /** The account-level extended public key deposit addresses derive from; null: no deposit addresses. */
  xpub: string | null;
  nativeCurrency: string;
  tokens: WatchedToken[];
}

/** The watched chain the configuration names, or null when CHAIN_RPC_URL is unset (no chain watched). */
export function chainConfigFromEnv(
  env: Pick<DomainEnv, "CHAIN_RPC_URL" | "CHAIN_XPUB" | "CHAIN_ID" | "CHAIN_USDT_ADDRESS">,
): ChainConfig | null {
  if (!env.CHAIN_RPC_URL) {
    return null;
  }
  return {
    network: EVM_NETWORK,
    chainId: env.CHAIN_ID,
    rpcUrl: env.CHAIN_RPC_URL,
    xpub: env.CHAIN_XPUB ?? null,
    nativeCurrency: EVM_NATIVE_CURRENCY,
    tokens: [{ currency: "USDT", address: env.CHAIN_USDT_ADDRESS.toLowerCase() as Address, decimals: 6 }],
  };
}

/** The currencies a chain's deposits arrive in: its own coin first, then its tokens. */
export function watchedCurrencies(config: ChainConfig): string[] {
  return [config.nativeCurrency, ...config.tokens.map((t) => t.currency)];
}

export function chainDefinition(config: ChainConfig): Chain {
  return {
    id: config.chainId,
    name: config.network,
    nativeCurrency: {
      name: config.nativeCurrency,
      symbol: config.nativeCurrency,
      decimals: EVM_NATIVE_DECIMALS,
    },
    rpcUrls: { default: { http: [config.rpcUrl] } },
  };
}

const clients = new Map<string, PublicClient>();

/** The read client of a chain (viem over HTTP JSON-RPC), one per node and chain id in a process. */
export function chainClient(config: ChainConfig): PublicClient {
  const key = `${config.chainId}|${config.rpcUrl}`;
  let client = clients.get(key);
  if (!client) {
    client = createPublicClient({ chain: chainDefinition(config), transport: http(config.rpcUrl) });
    clients.set(key, client);
  }
  return client;
}
