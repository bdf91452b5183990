import { randomBytes } from "node:crypto";
import { MoneyDecimal } from "@northstar/shared/money";
import { and, eq, like, sql } from "drizzle-orm";
import type { Address, Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "../db/client.ts";
import {
  addWithdrawalAddress,
  applyWithdrawal,
  approveWithdrawal,
  registerHotWalletRoute,
  rejectWithdrawal,
  releaseWithdrawal,
  withdrawals,
} from "../funding/index.ts";
import { hashSecret, type User, users } from "../identity/index.ts";
import { getUserBalances, journalEntries, postEntry, reconcileLedger } from "../ledger/index.ts";
import { createFixedPriceProvider } from "../markets/index.ts";
import { userMessages } from "../messages/index.ts";
import { setPolicy } from "../policy/index.ts";
import { seedDatabase } from "../setup/index.ts";
import { createTestDatabase } from "../test-support/index.ts";
import { startTestChain, type TestChain } from "../test-support/test-chain.ts";
import type { ChainConfig } from "./config.ts";
import { custodyReport, recordHotWalletTopUp } from "./custody.ts";
import { hotWalletPayouts } from "./hot-wallet.table.ts";
import { hotWalletSignerFromKey } from "./hot-wallet.ts";
import {
  type HotWallet,
  type HotWalletNetwork,
  listPayoutTransactions,
  paysWithdrawal,
  stepHotWalletWithdrawal,
  toBaseUnits,
} from "./withdrawal-broadcast.ts";

/**
 * The hot-wallet signer against a real EVM node (ganache, in process) and the real database: nonces
 * under parallel payouts, confirmations n/N, a revert refunded once, a stuck transaction replaced,
 * a crash between signing and sending, the daily limit. Time moves by mining blocks and by the
 * `now` each step is given.
 */
let db: Db;
let chain: TestChain;
let network: HotWalletNetwork;
let wallet: HotWallet;
let teardown: () => Promise<void>;
let tradePasswordHash: string;
const prices = createFixedPriceProvider();
// 13:00 in Hong Kong: inside the withdrawal window.
const NOW = new Date("2026-06-02T05:00:00Z");
const N = 3;
const KEY = generatePrivateKey();
let config: ChainConfig;
let poorAddress: string | undefined;

beforeAll(async () => {
  const database = await createTestDatabase();
  const conn = createDb(database.url, { max: 30 });
  conn.pool.on("error", () => {});
  db = conn.db;
  await seedDatabase(db);
  chain = await startTestChain();
  tradePasswordHash = await hashSecret("123456");
  network = {
    chain: "ERC20",
    chainId: chain.chainId,
    client: chain.client,
    nativeCurrency: "ETH",
    nativeDecimals: 18,
    tokens: { USDT: { address: chain.usdt, decimals: 6 } },
  };
  wallet = { network, signer: hotWalletSignerFromKey(KEY) };
  // The hot wallet's coins come from outside; an operator records each arrival against chain_funding.
  const topUps = [
    await chain.sendEth(chain.accounts[0] as Address, wallet.signer.address, "100"),
    await chain.mintUsdt(wallet.signer.address, "1000000"),
  ];
  await chain.mine(12);
  config = {
    network: "ERC20",
    chainId: chain.chainId,
    rpcUrl: chain.rpcUrl,
    xpub: null,
    nativeCurrency: "ETH",
    tokens: [{ currency: "USDT", address: chain.usdt.toLowerCase() as Address, decimals: 6 }],
  };
  for (const txHash of topUps) {
    await recordHotWalletTopUp(db, {
      config,
      client: chain.client,
      hotAddress: wallet.signer.address,
      txHash,
      actor: "test",
    });
  }
  registerHotWalletRoute((w) => paysWithdrawal(network, w));
  await setPolicy(db, "funding.withdraw.perDay", 100, "test");
  await setPolicy(db, "funding.withdraw.chains", { USDT: ["ERC20"], ETH: ["ERC20"] }, "test");
  await setPolicy(
    db,
    "chain.withdraw.confirmations",
    { default: N, byChain: { ERC20: { ETH: N, USDT: N } } },
    "test",
  );
  teardown = async () => {
    registerHotWalletRoute(() => false);
    await chain.close();
    await conn.close();
    await database.drop();
  };
});
afterAll(async () => {
  await teardown?.();
});

const recipient = () => privateKeyToAccount(generatePrivateKey()).address;

/** A user holding `funds` of the currency (a ledger grant), with an ERC20 address of their own. */
async function fundedUser(
  currency: string,
  funds: string,
): Promise<{ user: User; addressId: number; to: Address }> {
  const uid = String(10_000_000 + Math.floor(Math.random() * 89_999_999));
  const [user] = await db
    .insert(users)
    .values({
      uid,
      passwordHash: tradePasswordHash,
      tradePasswordHash,
      nationality: "GB",
      inviteCode: `H${randomBytes(4).toString("hex")}`,
      nickname: `U${uid}`,
    })
    .returning();
  if (!user) {
    throw new Error("insert failed");
  }
  const to = recipient();
  const address = await addWithdrawalAddress(db, user, { currency, chain: "ERC20", address: to });
  const key = `grant:${user.id}:${currency}`;
  await postEntry(db, {
    idempotencyKey: key,
    kind: "test.grant",
    reference: { type: "test", id: key },
    postings: [
      { account: { system: "deposit_clearing:test", book: "real", currency }, amount: `-${funds}` },
      { account: { userId: user.id, book: "real", wallet: "exchange", currency }, amount: funds },
    ],
  });
  return { user, addressId: address?.id ?? 0, to };
}

/** A withdrawal applied for and approved by an operator: queued for the hot wallet. */
async function approved(currency: string, amount: string, funds = amount) {
  const owner = await fundedUser(currency, funds);
  const w = await applyWithdrawal(
    db,
    prices,
    owner.user,
    {
      method: "crypto",
      currency,
      address_id: owner.addressId,
      amount,
      trade_password: "123456",
      google_code: undefined,
    },
    NOW,
  );
  const review = await approveWithdrawal(db, { withdrawalId: w.id, operatorId: 1, actor: "test" });
  expect(review.status).toBe("queued");
  return { ...owner, id: w.id, received: w.received, amount: w.amount };
}

async function row(id: number) {
  const [w] = await db.select().from(withdrawals).where(eq(withdrawals.id, id));
  if (!w) {
    throw new Error(`no withdrawal ${id}`);
  }
  return w;
}

async function balance(userId: number, currency: string) {
  const b = (await getUserBalances(db, userId, "real")).find(
    (x) => x.wallet === "exchange" && x.currency === currency,
  );
  return {
    available: new MoneyDecimal(b?.available ?? 0).toFixed(),
    held: new MoneyDecimal(b?.held ?? 0).toFixed(),
  };
}

async function expectReconciled() {
  const report = await reconcileLedger(db);
  expect(report.ok, JSON.stringify(report).slice(0, 500)).toBe(true);
}

describe("the hot-wallet signer", () => {
  it("gives 20 parallel payouts 20 distinct consecutive nonces, shows confirming n/N, and confirms them all", async () => {
    // More confirmations than the batch makes blocks, so each is seen confirming before it is done.
    const WIDE = 25;
    await setPolicy(db, "chain.withdraw.confirmations", { default: WIDE, byChain: {} }, "test");
    const batch = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 5 === 4 ? approved("ETH", "0.1") : approved("USDT", "150"))),
    );
    const first = await chain.client.getTransactionCount({
      address: wallet.signer.address,
      blockTag: "pending",
    });
    // All 20 wait in the node's pool, arriving in whatever order their jobs finish, as on a busy chain.
    await chain.client.request({ method: "miner_stop" } as never);
    const steps = await Promise.all(batch.map((w) => stepHotWalletWithdrawal(db, wallet, w.id, NOW)));
    await chain.client.request({ method: "miner_start" } as never);
    await setPolicy(
      db,
      "chain.withdraw.confirmations",
      { default: N, byChain: { ERC20: { ETH: N, USDT: N } } },
      "test",
    );
    const nonces = steps.map((s) => (s.state === "broadcast" ? s.nonce : -1)).sort((a, b) => a - b);
    expect(nonces).toEqual(Array.from({ length: 20 }, (_, i) => first + i));
    const stored = await db.select().from(hotWalletPayouts);
    expect(new Set(stored.map((p) => p.nonce)).size).toBe(20);
    await chain.mine(1);

    // The node has included them: confirming n of N, n counting the including block.
    const seen = await Promise.all(batch.map((w) => stepHotWalletWithdrawal(db, wallet, w.id, NOW)));
    for (const s of seen) {
      expect(s).toMatchObject({ state: "confirming", required: WIDE });
    }
    const one = await row(batch[0]?.id ?? 0);
    expect(one.status).toBe("confirming");
    expect(one.confirmationsRequired).toBe(WIDE);
    expect(one.confirmations).toBeGreaterThanOrEqual(1);
    expect(one.confirmations).toBeLessThan(WIDE);

    await chain.mine(WIDE);
    const done = await Promise.all(batch.map((w) => stepHotWalletWithdrawal(db, wallet, w.id, NOW)));
    expect(done.map((s) => s.state)).toEqual(batch.map(() => "success"));
    for (const w of batch) {
      const final = await row(w.id);
      expect(final.status).toBe("success");
      expect(final.txHash).toMatch(/^0x[0-9a-f]{64}$/);
      const receipt = await chain.client.getTransactionReceipt({ hash: final.txHash as Hex });
      expect(receipt.status).toBe("success");
      const currency = final.currency;
      if (currency === "USDT") {
        expect(await chain.usdtBalance(w.to)).toBe(toBaseUnits(w.received, 6));
      } else {
        expect(await chain.client.getBalance({ address: w.to })).toBe(toBaseUnits(w.received, 18));
      }
      // The hold left the user exactly: nothing held, nothing more taken.
      expect(await balance(w.user.id, currency)).toEqual({ available: "0", held: "0" });
    }
    // A later step (a second delivery) changes nothing.
    expect((await stepHotWalletWithdrawal(db, wallet, batch[0]?.id ?? 0, NOW)).state).toBe("idle");
    await expectReconciled();
  });

  it("refunds a payout the chain reverts exactly once, however often the job is delivered", async () => {
    // A second hot wallet with gas but no USDT: its transfer reverts on chain.
    const poor: HotWallet = { network, signer: hotWalletSignerFromKey(generatePrivateKey()) };
    poorAddress = poor.signer.address;
    await chain.sendEth(chain.accounts[0] as Address, poor.signer.address, "1");
    const w = await approved("USDT", "200", "500");
    expect(await balance(w.user.id, "USDT")).toEqual({ available: "300", held: "200" });
    const sent = await stepHotWalletWithdrawal(db, poor, w.id, NOW);
    expect(sent.state).toBe("broadcast");
    await chain.mine(N);
    const twice = await Promise.all([
      stepHotWalletWithdrawal(db, poor, w.id, NOW),
      stepHotWalletWithdrawal(db, poor, w.id, NOW),
    ]);
    expect(twice.map((s) => s.state).sort()).toEqual(["failed", "idle"]);
    expect((await stepHotWalletWithdrawal(db, poor, w.id, NOW)).state).toBe("idle");
    const final = await row(w.id);
    expect(final.status).toBe("failed");
    const receipt = await chain.client.getTransactionReceipt({ hash: final.txHash as Hex });
    expect(receipt.status).toBe("reverted");
    expect(await balance(w.user.id, "USDT")).toEqual({ available: "500", held: "0" });
    const releases = await db
      .select()
      .from(journalEntries)
      .where(like(journalEntries.idempotencyKey, `withdrawal:${w.id}:%`));
    expect(releases.map((e) => e.idempotencyKey).sort()).toEqual([
      `withdrawal:${w.id}:hold`,
      `withdrawal:${w.id}:release`,
    ]);
    const notes = await db
      .select()
      .from(userMessages)
      .where(and(eq(userMessages.userId, w.user.id), eq(userMessages.kind, "withdrawal.failed")));
    expect(notes).toHaveLength(1);
    await expectReconciled();
  });

  it("replaces a stuck payout with a higher fee at the same nonce, and the replacement confirms", async () => {
    const w = await approved("USDT", "120");
    await chain.client.request({ method: "miner_stop" } as never);
    try {
      const sent = await stepHotWalletWithdrawal(db, wallet, w.id, NOW);
      expect(sent.state).toBe("broadcast");
      // Not stuck yet: sent again only if the node lost it; nothing new is signed.
      expect((await stepHotWalletWithdrawal(db, wallet, w.id, new Date(NOW.getTime() + 1000))).state).toBe(
        "broadcast",
      );
      expect(await listPayoutTransactions(db, w.id)).toHaveLength(1);
      const later = new Date(NOW.getTime() + 601_000);
      const replaced = await stepHotWalletWithdrawal(db, wallet, w.id, later);
      expect(replaced.state).toBe("broadcast");
      const attempts = await listPayoutTransactions(db, w.id);
      expect(attempts).toHaveLength(2);
      const [a, b] = attempts as [(typeof attempts)[0], (typeof attempts)[0]];
      expect(BigInt(b.maxFeePerGas)).toBeGreaterThanOrEqual((BigInt(a.maxFeePerGas) * 125n) / 100n);
      expect(BigInt(b.maxPriorityFeePerGas)).toBeGreaterThan(BigInt(a.maxPriorityFeePerGas));
      const txA = await chain.client.getTransaction({ hash: a.hash as Hex }).catch(() => null);
      const txB = await chain.client.getTransaction({ hash: b.hash as Hex });
      expect(txB.nonce).toBe(txA?.nonce ?? txB.nonce);
      expect((await row(w.id)).txHash).toBe(b.hash);
    } finally {
      await chain.client.request({ method: "miner_start" } as never);
    }
    await chain.mine(N);
    const done = await stepHotWalletWithdrawal(db, wallet, w.id, NOW);
    expect(done.state).toBe("success");
    const attempts = await listPayoutTransactions(db, w.id);
    const final = await row(w.id);
    expect(final.txHash).toBe(attempts[1]?.hash);
    await expect(chain.client.getTransactionReceipt({ hash: attempts[0]?.hash as Hex })).rejects.toThrow();
    expect(await chain.usdtBalance(w.to)).toBe(toBaseUnits(w.received, 6));
    await expectReconciled();
  });

  it("sends the stored bytes again after a crash between signing and sending, never a second transaction", async () => {
    const w = await approved("USDT", "110");
    const crashing: HotWallet = {
      ...wallet,
      send: async () => {
        throw new Error("process died before sending");
      },
    };
    await expect(stepHotWalletWithdrawal(db, crashing, w.id, NOW)).rejects.toThrow(/died/);
    const stored = await listPayoutTransactions(db, w.id);
    expect(stored).toHaveLength(1);
    expect((await row(w.id)).status).toBe("broadcast");
    await expect(chain.client.getTransaction({ hash: stored[0]?.hash as Hex })).rejects.toThrow();
    // The restarted job finds the signed bytes, and the node does not know them: the same hash goes out.
    expect(await stepHotWalletWithdrawal(db, wallet, w.id, NOW)).toMatchObject({
      state: "broadcast",
      hash: stored[0]?.hash,
    });
    await chain.mine(N);
    expect((await stepHotWalletWithdrawal(db, wallet, w.id, NOW)).state).toBe("success");
    expect(await listPayoutTransactions(db, w.id)).toHaveLength(1);
    expect(await chain.usdtBalance(w.to)).toBe(toBaseUnits(w.received, 6));
  });

  it("replaces a payout still not included chain.withdraw.stuckAfterBlocks blocks after signing, before its seconds pass", async () => {
    await setPolicy(db, "chain.withdraw.stuckAfterBlocks", 5, "test");
    try {
      const w = await approved("USDT", "130");
      // The node never gets the first bytes (lost on the way), and the clock does not move.
      const lost: HotWallet = { ...wallet, send: async () => {} };
      expect((await stepHotWalletWithdrawal(db, lost, w.id, NOW)).state).toBe("broadcast");
      await chain.mine(4);
      expect((await stepHotWalletWithdrawal(db, lost, w.id, NOW)).state).toBe("broadcast");
      expect(await listPayoutTransactions(db, w.id)).toHaveLength(1);
      await chain.mine(1);
      expect((await stepHotWalletWithdrawal(db, wallet, w.id, NOW)).state).toBe("broadcast");
      const attempts = await listPayoutTransactions(db, w.id);
      expect(attempts).toHaveLength(2);
      expect(BigInt(attempts[1]?.maxFeePerGas ?? 0)).toBeGreaterThan(BigInt(attempts[0]?.maxFeePerGas ?? 0));
      await chain.mine(N);
      expect((await stepHotWalletWithdrawal(db, wallet, w.id, NOW)).state).toBe("success");
      expect((await row(w.id)).txHash).toBe(attempts[1]?.hash);
      expect(await chain.usdtBalance(w.to)).toBe(toBaseUnits(w.received, 6));
    } finally {
      await setPolicy(db, "chain.withdraw.stuckAfterBlocks", 50, "test");
    }
    await expectReconciled();
  });

  it("holds payouts past the daily hot-wallet limit for an operator, who releases or rejects them", async () => {
    // The limit counts what was sent today in USDT by this wallet's chain: set it just above that.
    const [today] = await db
      .select({ total: sql<string>`coalesce(sum(${hotWalletPayouts.amount}), 0)::text` })
      .from(hotWalletPayouts)
      .where(eq(hotWalletPayouts.currency, "USDT"));
    const limit = new MoneyDecimal(today?.total ?? "0").plus(150).toFixed();
    await setPolicy(db, "chain.withdraw.dailyLimit", { USDT: limit, ETH: "50" }, "test");
    try {
      const a = await approved("USDT", "140");
      const b = await approved("USDT", "140");
      const c = await approved("USDT", "140");
      expect((await stepHotWalletWithdrawal(db, wallet, a.id, NOW)).state).toBe("broadcast");
      expect((await stepHotWalletWithdrawal(db, wallet, b.id, NOW)).state).toBe("awaiting_release");
      expect((await stepHotWalletWithdrawal(db, wallet, c.id, NOW)).state).toBe("awaiting_release");
      // Waiting: another delivery sends nothing, and the user's amount stays held.
      expect((await stepHotWalletWithdrawal(db, wallet, b.id, NOW)).state).toBe("idle");
      expect((await row(b.id)).status).toBe("awaiting_release");
      expect(await balance(b.user.id, "USDT")).toEqual({ available: "0", held: "140" });

      await releaseWithdrawal(db, { withdrawalId: b.id, operatorId: 1, actor: "test" });
      expect((await row(b.id)).status).toBe("queued");
      expect((await stepHotWalletWithdrawal(db, wallet, b.id, NOW)).state).toBe("broadcast");
      await rejectWithdrawal(db, {
        withdrawalId: c.id,
        operatorId: 1,
        actor: "test",
        reason: "over the limit",
      });
      expect((await row(c.id)).status).toBe("failed");
      expect(await balance(c.user.id, "USDT")).toEqual({ available: "140", held: "0" });

      await chain.mine(N);
      for (const w of [a, b]) {
        expect((await stepHotWalletWithdrawal(db, wallet, w.id, NOW)).state).toBe("success");
      }
      // A new UTC day starts a new allowance.
      const d = await approved("USDT", "140");
      expect(
        (await stepHotWalletWithdrawal(db, wallet, d.id, new Date(NOW.getTime() + 86_400_000))).state,
      ).toBe("broadcast");
      await chain.mine(N);
      expect((await stepHotWalletWithdrawal(db, wallet, d.id, NOW)).state).toBe("success");
    } finally {
      await setPolicy(db, "chain.withdraw.dailyLimit", { USDT: "200000", ETH: "50" }, "test");
    }
    await expectReconciled();
  });

  it("books payouts and their gas through chain_custody:ERC20:hot, so the hot wallet's custody equals the chain", async () => {
    const report = await custodyReport(db, {
      config,
      client: chain.client,
      hotAddress: wallet.signer.address,
    });
    const hot = (currency: string) => report.find((l) => l.place === "hot" && l.currency === currency);
    // Every USDT payout and every fee left the custody account as it left the chain.
    expect(hot("USDT")?.difference).toBe("0");
    expect(new MoneyDecimal(hot("USDT")?.chain ?? "0").greaterThan(0)).toBe(true);
    // The second wallet of the revert test got 1 ETH from outside that no operator recorded: the
    // report shows exactly that; its reverted payout's gas left the books as it left the chain.
    expect(poorAddress).toBeDefined();
    expect(hot("ETH")?.difference).toBe("1");
    const clearing = await db.execute<{ n: number }>(
      sql`select count(*)::int as n from postings p join ledger_accounts a on a.id = p.account_id where a.system_code like 'withdrawal_clearing:%'`,
    );
    expect(clearing.rows[0]?.n).toBe(0);
    await expectReconciled();
  });

  it("keeps the key out of the database: no stored row holds it", async () => {
    const bare = KEY.slice(2).toLowerCase();
    const tables = await db.execute<{ name: string }>(
      sql`select tablename as name from pg_tables where schemaname = 'public' order by tablename`,
    );
    for (const { name } of tables.rows) {
      const hits = await db.execute(
        sql`select 1 from ${sql.identifier(name)} t where lower(t::text) like ${`%${bare}%`} limit 1`,
      );
      expect(hits.rows, name).toHaveLength(0);
    }
  });
});
