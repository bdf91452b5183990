import { setTimeout as sleep } from "node:timers/promises";
import {
  type ChainConfig,
  chainClient,
  custodyReport,
  loadHotWalletSigner,
  loadSweepKey,
  openSweepCount,
  recordHotWalletTopUp,
  runSweeps,
} from "@northstar/domain/chain";
import type { Db } from "@northstar/domain/db";
import type { DomainEnv } from "@northstar/domain/env";
import { sweepKeyEnv } from "../env.ts";

/**
 * The chain's custody commands of `pnpm admin`, run in the operator's process against the node:
 * sweeps (the deposit key is read here, from `CHAIN_SWEEP_KEY_FILE` or `CHAIN_SWEEP_KEY`, and only
 * here: never stored, never printed), the hot wallet's top-ups, and the ledger's custody against
 * the chain. The hot wallet's key names its address and, for a sweep, signs the gas top-ups.
 */
export const CHAIN_USAGE = `  chain:sweep [--wait]   move deposit addresses' coins to the hot wallet (gas topped up first); needs
      CHAIN_SWEEP_KEY_FILE (the xprv of CHAIN_XPUB, or its recovery phrase) and the hot wallet's key;
      run again (or --wait) until every sweep is confirmed: a rerun never sends anything twice
  chain:sweeps [planned|gas_sent|sent|confirmed|failed]   the sweeps, newest first
  chain:custody   ledger custody (chain_custody:<chain>:deposits|hot) against the node's balances;
      exits 0 only when every difference is zero
  chain:hot-top-up <txHash>   record coins put into the hot wallet from outside (after its confirmations)`;

type Env = Pick<
  DomainEnv,
  | "CHAIN_RPC_URL"
  | "CHAIN_XPUB"
  | "CHAIN_ID"
  | "CHAIN_USDT_ADDRESS"
  | "HOT_WALLET_PRIVATE_KEY"
  | "HOT_WALLET_KEY_FILE"
>;

export async function runChainCommand(
  command: string,
  args: string[],
  ctx: { db: Db; chain: ChainConfig | null; env: Env; print: (value: unknown) => void },
): Promise<number | null> {
  if (!["chain:sweep", "chain:custody", "chain:hot-top-up"].includes(command)) {
    return null;
  }
  const { db, chain, print } = ctx;
  if (!chain) {
    console.error("no chain is watched: set CHAIN_RPC_URL");
    return 2;
  }
  const client = chainClient(chain);
  const hot = loadHotWalletSigner(ctx.env);
  switch (command) {
    case "chain:custody": {
      const lines = await custodyReport(db, { config: chain, client, hotAddress: hot?.address ?? null });
      print(lines);
      const off = lines.filter((l) => l.difference !== "0");
      if (off.length > 0) {
        console.error(
          `custody differs from the chain: ${off.map((l) => `${l.place} ${l.currency} ${l.difference}`).join(", ")}`,
        );
        return 1;
      }
      return 0;
    }
    case "chain:hot-top-up": {
      if (!hot || !args[0]) {
        console.error(
          hot
            ? "usage: chain:hot-top-up <txHash>"
            : "the hot wallet's key names its address: set HOT_WALLET_KEY_FILE",
        );
        return 2;
      }
      print(
        await recordHotWalletTopUp(db, {
          config: chain,
          client,
          hotAddress: hot.address,
          txHash: args[0],
          actor: "cli",
        }),
      );
      return 0;
    }
    default: {
      if (!hot) {
        console.error("a sweep's gas comes from the hot wallet: set HOT_WALLET_KEY_FILE");
        return 2;
      }
      const key = loadSweepKey(sweepKeyEnv(), chain.xpub);
      const deps = { db, config: chain, client, hot, key, log: (line: string) => console.log(line) };
      for (;;) {
        const steps = await runSweeps(deps);
        print(steps);
        const open = await openSweepCount(db, chain.network);
        if (!args.includes("--wait") || open === 0) {
          console.log(open === 0 ? "no sweep is open" : `${open} sweep(s) wait for the chain: run again`);
          return 0;
        }
        await sleep(15_000);
      }
    }
  }
}
