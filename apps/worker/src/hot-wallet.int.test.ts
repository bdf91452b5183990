import { randomBytes } from "node:crypto";
import {
  type HotWallet,
  hotWalletSignerFromKey,
  listPayoutTransactions,
  payoutJobId,
  paysWithdrawal,
  recordHotWalletTopUp,
  toBaseUnits,
} from "@northstar/domain/chain";
import type { Db } from "@northstar/domain/db";
import {
  addWithdrawalAddress,
  applyWithdrawal,
  approveWithdrawal,
  registerHotWalletRoute,
} from "@northstar/domain/funding";
import { hashSecret, users } from "@northstar/domain/identity";
import { postEntry, reconcileLedger } from "@northstar/domain/ledger";
import { createFixedPriceProvider } from "@northstar/domain/markets";
import { setPolicy } from "@northstar/domain/policy";
import { JOBS, QUEUES } from "@northstar/shared/jobs";
import { Queue } from "bullmq";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startTestChain, type TestChain } from "../../../packages/domain/src/test-support/test-chain.ts";
import { startHotWallet } from "./queues/hot-wallet.ts";
import { useWorkerTestBed } from "./test/queue-test-bed.ts";

/**
 * The hot-wallet queue against real PostgreSQL, Redis, BullMQ and an in-process EVM node: payouts
 * approved while no worker ran are picked up by the sweep on start, a worker stopped mid-way is
 * caught up by the next, a second delivery of a withdrawal's job sends nothing new, and nothing the
 * run logs holds the key. Blocks are mined by the test; the test waits for states, never sleeps.
 */
const bed = useWorkerTestBed("hot-wallet");
const { redis: connection, prefix } = bed;
let db: Db;
let chain: TestChain;
let wallet: HotWallet;
let queue: Queue;
type Address = `0x${string}`;
const KEY: Address = `0x${randomBytes(32).toString("hex")}`;
const N = 3;
// 13:00 in Hong Kong: inside the withdrawal window.
const NOW = new Date("2026-06-02T05:00:00Z");
const prices = createFixedPriceProvider();

beforeAll(async () => {
  ({ db } = bed);
  chain = await startTestChain();
  wallet = {
    network: {
      chain: "ERC20",
      chainId: chain.chainId,
      client: chain.client,
      nativeCurrency: "ETH",
      nativeDecimals: 18,
      tokens: { USDT: { address: chain.usdt, decimals: 6 } },
    },
    signer: hotWalletSignerFromKey(KEY),
  };
  // Coins put into the hot wallet from outside are recorded by an operator once the node has the
  // deposit confirmations: payouts leave chain_custody:ERC20:hot, which cannot give more than it holds.
  const topUps = [
    await chain.sendEth(chain.accounts[0] as Address, wallet.signer.address, "10"),
    await chain.mintUsdt(wallet.signer.address, "100000"),
  ];
  await chain.mine(12);
  for (const txHash of topUps) {
    await recordHotWalletTopUp(db, {
      config: {
        network: "ERC20",
        chainId: chain.chainId,
        rpcUrl: chain.rpcUrl,
        xpub: null,
        nativeCurrency: "ETH",
        tokens: [{ currency: "USDT", address: chain.usdt.toLowerCase() as Address, decimals: 6 }],
      },
      client: chain.client,
      hotAddress: wallet.signer.address,
      txHash,
      actor: "test",
    });
  }
  registerHotWalletRoute((w) => paysWithdrawal(wallet.network, w));
  await setPolicy(db, "funding.withdraw.perDay", 100, "test");
  await setPolicy(
    db,
    "chain.withdraw.confirmations",
    { default: N, byChain: { ERC20: { ETH: N, USDT: N } } },
    "test",
  );
  queue = new Queue(QUEUES.hotWallet, { connection, prefix });
});
afterAll(async () => {
  registerHotWalletRoute(() => false);
  await queue?.close();
  await chain?.close();
});

/** A user with USDT (a ledger grant) who applied to withdraw `amount`, approved by an operator. */
async function approvedWithdrawal(amount: string) {
  const uid = String(10_000_000 + Math.floor(Math.random() * 89_999_999));
  const tradePasswordHash = await hashSecret("123456");
  const [user] = await db
    .insert(users)
    .values({
      uid,
      passwordHash: tradePasswordHash,
      tradePasswordHash,
      nationality: "GB",
      inviteCode: `K${randomBytes(4).toString("hex")}`,
      nickname: `U${uid}`,
    })
    .returning();
  if (!user) {
    throw new Error("insert failed");
  }
  const to: Address = `0x${randomBytes(20).toString("hex")}`;
  const address = await addWithdrawalAddress(db, user, { currency: "USDT", chain: "ERC20", address: to });
  await postEntry(db, {
    idempotencyKey: `grant:${user.id}`,
    kind: "test.grant",
    reference: { type: "test", id: `grant:${user.id}` },
    postings: [
      { account: { system: "deposit_clearing:test", book: "real", currency: "USDT" }, amount: `-${amount}` },
      { account: { userId: user.id, book: "real", wallet: "exchange", currency: "USDT" }, amount },
    ],
  });
  const w = await applyWithdrawal(
    db,
    prices,
    user,
    {
      method: "crypto",
      currency: "USDT",
      address_id: address?.id ?? 0,
      amount,
      trade_password: "123456",
      google_code: undefined,
    },
    NOW,
  );
  expect((await approveWithdrawal(db, { withdrawalId: w.id, operatorId: 1, actor: "test" })).status).toBe(
    "queued",
  );
  return { id: w.id, to, received: w.received };
}

async function statuses(ids: number[]) {
  const { rows } = await bed.pool.query<{ status: string }>(
    "select status from withdrawals where id = any($1::bigint[]) order by id",
    [ids],
  );
  return rows.map((r) => r.status);
}

describe("the hot-wallet worker", () => {
  it("catches up after a restart, sends nothing twice, and logs no key", async () => {
    const lines: string[] = [];
    const log = (line: string) => lines.push(line);
    const printed = [
      vi.spyOn(console, "log").mockImplementation((...args) => void lines.push(args.map(String).join(" "))),
      vi.spyOn(console, "error").mockImplementation((...args) => void lines.push(args.map(String).join(" "))),
      vi.spyOn(console, "warn").mockImplementation((...args) => void lines.push(args.map(String).join(" "))),
    ];
    try {
      // Approved while no worker ran.
      const batch = [await approvedWithdrawal("150"), await approvedWithdrawal("160")];
      const ids = batch.map((w) => w.id);
      // The first worker's node connection fails once when sending: the job fails, is retried, succeeds.
      let failures = 1;
      const flaky: HotWallet = {
        ...wallet,
        send: async (raw) => {
          if (failures-- > 0) {
            throw new Error("node unreachable");
          }
          await chain.client.sendRawTransaction({ serializedTransaction: raw });
        },
      };
      const first = startHotWallet({
        db,
        connection,
        prefix,
        wallet: flaky,
        log,
        now: () => NOW,
        pollMs: 50,
      });
      await first.started;
      await vi.waitFor(async () => expect(await statuses(ids)).toEqual(["confirming", "confirming"]), {
        timeout: 60_000,
        interval: 50,
      });
      // Stopped mid-way: included, not yet confirmed.
      await first.close();

      await chain.mine(N);
      // The same withdrawal delivered twice more: its own job id, and a stray job of another id.
      await queue.add(JOBS.payWithdrawal, { withdrawalId: ids[0] }, { jobId: payoutJobId(ids[0] ?? 0) });
      await queue.add(JOBS.payWithdrawal, { withdrawalId: ids[0] }, { jobId: `again-${ids[0]}` });
      const second = startHotWallet({ db, connection, prefix, wallet, log, now: () => NOW, pollMs: 50 });
      try {
        await second.started;
        await vi.waitFor(async () => expect(await statuses(ids)).toEqual(["success", "success"]), {
          timeout: 60_000,
          interval: 50,
        });
      } finally {
        await second.close();
      }
      for (const w of batch) {
        expect(await listPayoutTransactions(db, w.id)).toHaveLength(1);
        expect(await chain.usdtBalance(w.to)).toBe(toBaseUnits(w.received, 6));
        const { rows } = await bed.pool.query<{ confirmations: number }>(
          "select confirmations from withdrawals where id = $1",
          [w.id],
        );
        expect(rows[0]?.confirmations).toBeGreaterThanOrEqual(N);
      }
      expect((await reconcileLedger(db)).ok).toBe(true);
    } finally {
      for (const spy of printed) {
        spy.mockRestore();
      }
    }
    // The run logged something (the failed send at least), and none of it holds the key.
    expect(lines.some((l) => l.includes("node unreachable"))).toBe(true);
    const bare = KEY.slice(2).toLowerCase();
    for (const line of lines) {
      expect(line.toLowerCase()).not.toContain(bare);
    }
  });
});
