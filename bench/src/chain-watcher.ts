import os from "node:os";
import { type ChainConfig, chainClient, watchOnce } from "@northstar/domain/chain";
import { createDb } from "@northstar/domain/db";
import { createFixedPriceProvider } from "@northstar/domain/markets";
import { setPolicy } from "@northstar/domain/policy";
import { encodeFunctionData, type Hex, parseUnits } from "viem";
import { mnemonicToAccount } from "viem/accounts";
import {
  startTestChain,
  TEST_CHAIN_MNEMONIC,
  testXpub,
} from "../../packages/domain/src/test-support/index.ts";
import { freshPlatformDatabase } from "./database.ts";
import { sized } from "./smoke.ts";
import { type BenchResult, percentile } from "./types.ts";

/*
 * The chain watcher reading blocks of a busy chain: USERS users with a deposit address each, BLOCKS
 * blocks of TRANSFERS test-USDT transfers (ERC20 `Transfer` logs, mints from one sender) to random
 * users among them, on an in-process EVM node. Measured per repeat: the watcher starting from the
 * first of those blocks and reading them all (each block: its transactions, its token logs, one lookup
 * of the recipients among the stored addresses, then one transaction per block writing all its
 * deposits and transfer rows in a fixed number of statements) — blocks and transfers per wall second, and this process's CPU seconds (the
 * node runs in this process too; PostgreSQL's work is not in it). Confirmations are set above the
 * chain's length so nothing is credited: the figure is the reading and recording. The database round
 * trips of each repeat (every statement a pooled connection sends) are counted per transfer. Between repeats the
 * recorded blocks, transfers and deposits are cleared. Checked each repeat: every transfer recorded once.
 */
const DATABASE_URL =
  process.env.BENCH_CHAIN_DATABASE_URL ??
  `postgresql://postgres@127.0.0.1:5432/northstar_bench_chain${sized("", "_smoke")}`;
const USERS = Number(process.env.BENCH_CHAIN_USERS ?? sized(10_000, 200));
const BLOCKS = Number(process.env.BENCH_CHAIN_BLOCKS ?? sized(5, 2));
const TRANSFERS = Number(process.env.BENCH_CHAIN_TRANSFERS ?? sized(1000, 20));
const REPEATS = Number(process.env.BENCH_CHAIN_REPEATS ?? sized(3, 1));

const MINT = [
  {
    type: "function",
    name: "mint",
    stateMutability: "nonpayable",
    inputs: [
      { name: "to", type: "address" },
      { name: "amount", type: "uint256" },
    ],
    outputs: [],
  },
] as const;

const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
const round2 = (v: number) => Math.round(v * 100) / 100;
const stats = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    median: round2(percentile(sorted, 50)),
    min: round2(sorted[0] ?? Number.NaN),
    max: round2(sorted.at(-1) ?? Number.NaN),
  };
};

export async function run(): Promise<BenchResult> {
  await freshPlatformDatabase(DATABASE_URL);
  const chain = await startTestChain({ blockGasLimit: 1_000_000_000n });
  const { db, pool, close } = createDb(DATABASE_URL, { max: 4 });
  const loadBefore = os.loadavg();
  try {
    await setPolicy(db, "chain.deposit.confirmations", { ERC20: { ETH: 10_000, USDT: 10_000 } }, "bench");
    await setPolicy(db, "chain.watcher.maxBlocksPerPass", 10_000, "bench");
    // Users and their addresses in bulk; the addresses are random (the watcher matches stored ones).
    await pool.query(
      `insert into users (uid, password_hash, nationality, invite_code, nickname)
       select (50000000 + g)::text, 'x', 'GB', 'Z' || g, 'Chain' || g from generate_series(1, $1::int) g`,
      [USERS],
    );
    const { rows: addressRows } = await pool.query<{ address: string }>(
      `insert into chain_addresses (network, user_id, derivation_index, address)
       select 'ERC20', u.id, row_number() over (order by u.id) - 1,
              '0x' || encode(sha256(('bench' || u.id)::bytea), 'hex')::char(40)
       from users u where u.invite_code like 'Z%'
       returning address`,
    );
    const addresses = addressRows.map((r) => r.address as Hex);

    // BLOCKS blocks of TRANSFERS mints each, signed here and mined together by evm_mine.
    const sender = mnemonicToAccount(TEST_CHAIN_MNEMONIC, { addressIndex: 0 });
    const rpc = (method: string, params: unknown[] = []) =>
      chain.client.request({ method, params } as never) as Promise<unknown>;
    let nonce = await chain.client.getTransactionCount({ address: sender.address, blockTag: "pending" });
    const gasPrice = await chain.client.getGasPrice();
    const firstBlock = (await chain.head()) + 1n;
    await rpc("miner_stop");
    for (let b = 0; b < BLOCKS; b++) {
      const raws: Hex[] = [];
      for (let i = 0; i < TRANSFERS; i++) {
        const to = addresses[(b * TRANSFERS + i * 7919) % addresses.length] as Hex;
        raws.push(
          await sender.signTransaction({
            chainId: chain.chainId,
            type: "legacy",
            nonce: nonce++,
            gas: 100_000n,
            gasPrice,
            to: chain.usdt,
            data: encodeFunctionData({ abi: MINT, functionName: "mint", args: [to, parseUnits("5", 6)] }),
          }),
        );
      }
      for (let i = 0; i < raws.length; i += 100) {
        await Promise.all(raws.slice(i, i + 100).map((raw) => rpc("eth_sendRawTransaction", [raw])));
      }
      await rpc("evm_mine");
    }
    const lastBlock = await chain.head();
    let logs = 0;
    const perBlock: number[] = [];
    for (let n = firstBlock; n <= lastBlock; n++) {
      perBlock.push((await chain.client.getBlock({ blockNumber: n })).transactions.length);
      logs += perBlock.at(-1) ?? 0;
    }
    console.log(`transfers per block: ${perBlock.join(", ")}`);
    if (logs !== BLOCKS * TRANSFERS || lastBlock - firstBlock + 1n !== BigInt(BLOCKS)) {
      throw new Error(
        `expected ${BLOCKS} blocks of ${TRANSFERS}, got ${logs} transfers in ${lastBlock - firstBlock + 1n} blocks`,
      );
    }

    const config: ChainConfig = {
      network: "ERC20",
      chainId: chain.chainId,
      rpcUrl: chain.rpcUrl,
      xpub: testXpub(),
      nativeCurrency: "ETH",
      tokens: [{ currency: "USDT", address: chain.usdt.toLowerCase() as Hex, decimals: 6 }],
    };
    const deps = {
      db,
      client: chainClient(config),
      config,
      prices: createFixedPriceProvider(),
      startBlock: firstBlock,
    };
    // Database round trips of the watcher: every query a pooled connection sends (BEGIN and COMMIT
    // included), counted while a repeat runs.
    let roundTrips = 0;
    let counting = false;
    const counted = new WeakSet<object>();
    pool.on("acquire", (client) => {
      if (counted.has(client)) {
        return;
      }
      counted.add(client);
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
        if (counting) {
          roundTrips += 1;
        }
        return query(...args);
      };
    });
    const roundTripsPerTransfer: number[] = [];
    const roundTripsPerRepeat: number[] = [];
    const blocksPerSecond: number[] = [];
    const transfersPerSecond: number[] = [];
    const cpuSeconds: number[] = [];
    const loads: number[] = [];
    for (let r = 0; r < REPEATS; r++) {
      await pool.query("delete from chain_blocks; delete from chain_transfers; delete from deposits");
      loads.push(os.loadavg()[0] ?? 0);
      const cpu0 = cpu();
      const t0 = performance.now();
      roundTrips = 0;
      counting = true;
      let read = 0;
      while (read < BLOCKS) {
        read += (await watchOnce(deps)).blocks;
      }
      counting = false;
      const seconds = (performance.now() - t0) / 1000;
      cpuSeconds.push(cpu() - cpu0);
      roundTripsPerTransfer.push(roundTrips / (BLOCKS * TRANSFERS));
      roundTripsPerRepeat.push(roundTrips);
      const { rows } = await pool.query<{ n: number }>("select count(*)::int as n from chain_transfers");
      if (rows[0]?.n !== BLOCKS * TRANSFERS) {
        throw new Error(`repeat ${r}: ${rows[0]?.n} transfers recorded, expected ${BLOCKS * TRANSFERS}`);
      }
      blocksPerSecond.push(BLOCKS / seconds);
      transfersPerSecond.push((BLOCKS * TRANSFERS) / seconds);
    }
    const loadAfter = os.loadavg();
    const figures = {
      users: USERS,
      blocks: BLOCKS,
      transfersPerBlock: TRANSFERS,
      repeats: REPEATS,
      blocksPerSecond: stats(blocksPerSecond),
      transfersPerSecond: stats(transfersPerSecond),
      processCpuSecondsPerRepeat: stats(cpuSeconds),
      databaseRoundTripsPerTransfer: {
        median:
          Math.round(
            (percentile(
              [...roundTripsPerTransfer].sort((a, b) => a - b),
              50,
            ) ?? 0) * 1e4,
          ) / 1e4,
        perRepeat: roundTripsPerRepeat,
      },
      loadAverage1m: {
        before: round2(loadBefore[0] ?? 0),
        perRepeat: loads.map(round2),
        after: round2(loadAfter[0] ?? 0),
      },
      cores: os.cpus().length,
    };
    return {
      summary: [
        `${USERS} addresses, ${BLOCKS} blocks × ${TRANSFERS} USDT transfers, ${REPEATS} repeats`,
        `blocks/s median ${figures.blocksPerSecond.median} (${figures.blocksPerSecond.min}–${figures.blocksPerSecond.max})`,
        `transfers/s median ${figures.transfersPerSecond.median} (${figures.transfersPerSecond.min}–${figures.transfersPerSecond.max})`,
        `database round trips per transfer median ${figures.databaseRoundTripsPerTransfer.median} (per repeat: ${roundTripsPerRepeat.join(", ")})`,
        `process CPU s per repeat median ${figures.processCpuSecondsPerRepeat.median}; load ${figures.loadAverage1m.before} → ${figures.loadAverage1m.after}`,
      ],
      figures,
    };
  } finally {
    await close();
    await chain.close();
  }
}
