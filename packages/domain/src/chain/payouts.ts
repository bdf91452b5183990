import type { DomainEnv } from "../env.ts";
import { registerHotWalletRoute } from "../funding/index.ts";
import { type ChainConfig, chainClient, chainConfigFromEnv, EVM_NATIVE_DECIMALS } from "./config.ts";
import type { HotWalletNetwork } from "./withdrawal-broadcast.ts";
import { paysWithdrawal } from "./withdrawal-broadcast.ts";

type HotWalletEnv = Pick<
  DomainEnv,
  | "CHAIN_RPC_URL"
  | "CHAIN_XPUB"
  | "CHAIN_ID"
  | "CHAIN_USDT_ADDRESS"
  | "HOT_WALLET_PRIVATE_KEY"
  | "HOT_WALLET_KEY_FILE"
>;

/** The chain the hot wallet pays on, as the signer sees it, over the configured node's client. */
export function hotWalletNetwork(config: ChainConfig, client = chainClient(config)): HotWalletNetwork {
  return {
    chain: config.network,
    chainId: config.chainId,
    client,
    nativeCurrency: config.nativeCurrency,
    nativeDecimals: EVM_NATIVE_DECIMALS,
    tokens: Object.fromEntries(
      config.tokens.map((t) => [t.currency, { address: t.address, decimals: t.decimals }]),
    ),
  };
}

/**
 * The watched chain when the configuration names both a node and a hot-wallet key, else null. Only
 * whether a key is configured is read here; the worker's hot-wallet role loads it.
 */
export function hotWalletChain(env: HotWalletEnv): ChainConfig | null {
  const config = chainConfigFromEnv(env);
  return config && (env.HOT_WALLET_PRIVATE_KEY || env.HOT_WALLET_KEY_FILE) ? config : null;
}

/**
 * Approvals of withdrawals on this chain, in its coin or tokens, go to the hot wallet (`queued`)
 * instead of being paid outside the platform. The API and the worker call it at start with the same
 * configuration; null turns it off.
 */
export function useHotWalletPayouts(config: ChainConfig | null) {
  if (!config) {
    registerHotWalletRoute(() => false);
    return;
  }
  const tokens = Object.fromEntries(config.tokens.map((t) => [t.currency, t]));
  const network = { chain: config.network, nativeCurrency: config.nativeCurrency, tokens };
  registerHotWalletRoute((w) => paysWithdrawal(network, w));
}
