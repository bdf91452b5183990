// `pnpm chain:dev`: a local EVM node on 127.0.0.1:8545 (CHAIN_DEV_PORT) with test USDT deployed, for
// running the platform against a real chain. It writes the node's address, chain id, token address
// and funded accounts to var/chain.json; Ctrl-C stops it (its blocks are kept in memory only).
import { mkdirSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { startTestChain, TEST_CHAIN_MNEMONIC } from "../packages/domain/src/test-support/test-chain.ts";

const port = Number(process.env.CHAIN_DEV_PORT ?? 8545);
const chain = await startTestChain({ port, totalAccounts: 10 });
const rpcUrl = `http://127.0.0.1:${port}`;
const varDir = fileURLToPath(new URL("../var", import.meta.url));
mkdirSync(varDir, { recursive: true });
const info = {
  rpcUrl,
  chainId: chain.chainId,
  usdt: chain.usdt,
  usdtDecimals: 6,
  mnemonic: TEST_CHAIN_MNEMONIC,
  accounts: chain.accounts,
};
writeFileSync(`${varDir}/chain.json`, `${JSON.stringify(info, null, 2)}\n`);
console.log(`EVM node on ${rpcUrl} (chain id ${chain.chainId}); test USDT at ${chain.usdt}`);
console.log(
  `Run the platform with CHAIN_RPC_URL=${rpcUrl} CHAIN_ID=${chain.chainId} CHAIN_USDT_ADDRESS=${chain.usdt}`,
);
const stop = () => {
  void chain.close().then(() => process.exit(0));
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
