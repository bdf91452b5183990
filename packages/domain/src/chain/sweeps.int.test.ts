import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MoneyDecimal } from "@northstar/shared/money";
import { HDKey } from "@scure/bip32";
import { and, asc, eq, sql } from "drizzle-orm";
import { type Address, formatUnits, type Hex, parseUnits } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "../db/client.ts";
import {
  addWithdrawalAddress,
  applyWithdrawal,
  approveWithdrawal,
  deposits,
  registerHotWalletRoute,
} from "../funding/index.ts";
import { hashSecret, users } from "../identity/index.ts";
import { postEntry, reconcileLedger, systemBalance } from "../ledger/index.ts";
import { createFixedPriceProvider } from "../markets/index.ts";
import { setPolicy } from "../policy/index.ts";
import { seedDatabase } from "../setup/index.ts";
import {
  createTestDatabase,
  startTestChain,
  TEST_CHAIN_MNEMONIC,
  TEST_PLATFORM_MNEMONIC,
  type TestChain,
  testXprv,
  testXpub,
} from "../test-support/index.ts";
import { depositAddressFor } from "./addresses.ts";
import { type ChainConfig, chainClient } from "./config.ts";
import { custodyReport, hotCustody, recordHotWalletTopUp } from "./custody.ts";
import { hotWalletSignerFromKey } from "./hot-wallet.ts";
import { hotWalletNetwork } from "./payouts.ts";
import { chainSweeps } from "./sweep.table.ts";
import { loadSweepKey, type SweepKey, sweepKeyFromText } from "./sweep-key.ts";
import { runSweeps, type SweepDeps } from "./sweeps.ts";
import { type WatcherDeps, watchOnce } from "./watcher.ts";
import { type HotWallet, paysWithdrawal, stepHotWalletWithdrawal } from "./withdrawal-broadcast.ts";

/**
 * Sweeps against a real EVM node (ganache, in process) and the real database: deposit addresses'
 * tokens moved to the hot wallet with the gas topped up first, the chain's own coin swept minus its
 * gas, reruns and crashes that send nothing twice, and the ledger's custody accounts equal to the
 * node's balances to the last unit throughout.
 */
const XPUB = testXpub();
const XPRV = testXprv();
const HOT_KEY = generatePrivateKey();
const N = 3;
/** Sweeps wait for more blocks than a run makes (each sent transaction is a block on the test node). */
const SWEEP_N = 10;
// 13:00 in Hong Kong: inside the withdrawal window.
const NOW = new Date("2026-06-02T05:00:00Z");

let db: Db;
let chain: TestChain;
let config: ChainConfig;
let watcher: WatcherDeps;
let key: SweepKey;
let keyDir: string;
let funder: Address;
const logs: string[] = [];
const hot = hotWalletSignerFromKey(HOT_KEY);
let teardown: () => Promise<void>;

beforeAll(async () => {
  const database = await createTestDatabase();
  const conn = createDb(database.url, { max: 10 });
  conn.pool.on("error", () => {});
  db = conn.db;
  await seedDatabase(db);
  await setPolicy(db, "chain.deposit.confirmations", { ERC20: { ETH: N, USDT: N } }, "test");
  await setPolicy(db, "chain.sweep.confirmations", SWEEP_N, "test");
  await setPolicy(db, "chain.sweep.minAmount", { USDT: "100", ETH: "0.05" }, "test");
  chain = await startTestChain();
  funder = chain.accounts[1] as Address;
  await chain.mintUsdt(funder, "1000000");
  config = {
    network: "ERC20",
    chainId: chain.chainId,
    rpcUrl: chain.rpcUrl,
    xpub: XPUB,
    nativeCurrency: "ETH",
    tokens: [{ currency: "USDT", address: chain.usdt.toLowerCase() as Address, decimals: 6 }],
  };
  watcher = { db, client: chainClient(config), config, prices: createFixedPriceProvider(), startBlock: 0n };
  // The operator's key file, read by the sweep only.
  keyDir = mkdtempSync(join(tmpdir(), "sweep-key-"));
  writeFileSync(join(keyDir, "key"), `${XPRV}\n`, { mode: 0o600 });
  key = loadSweepKey({ CHAIN_SWEEP_KEY_FILE: join(keyDir, "key") }, XPUB);
  // The hot wallet's gas money, put in from outside and recorded by an operator.
  const topUp = await chain.sendEth(chain.accounts[0] as Address, hot.address, "10");
  await chain.mine(N);
  await recordHotWalletTopUp(db, {
    config,
    client: chain.client,
    hotAddress: hot.address,
    txHash: topUp,
    actor: "test",
  });
  teardown = async () => {
    registerHotWalletRoute(() => false);
    rmSync(keyDir, { recursive: true, force: true });
    await chain.close();
    await conn.close();
    await database.drop();
  };
});
afterAll(async () => {
  await teardown?.();
});

const sweepDeps = (over: Partial<SweepDeps> = {}): SweepDeps => ({
  db,
  config,
  client: chain.client,
  hot,
  key,
  now: NOW,
  log: (line) => logs.push(line),
  ...over,
});

async function newUser(tradePasswordHash = "x") {
  const uid = String(10_000_000 + Math.floor(Math.random() * 89_999_999));
  const [user] = await db
    .insert(users)
    .values({
      uid,
      passwordHash: tradePasswordHash,
      tradePasswordHash,
      nationality: "GB",
      inviteCode: `S${randomBytes(4).toString("hex")}`,
      nickname: `U${uid}`,
    })
    .returning();
  if (!user) {
    throw new Error("insert failed");
  }
  return user;
}

/** A user whose deposit address received these transfers, credited by the watcher. */
async function depositor(usdt: string, eth?: string) {
  const user = await newUser();
  const { address } = await depositAddressFor(db, config, user.id);
  await chain.transferUsdt(funder, address as Address, usdt);
  if (eth) {
    await chain.sendEth(funder, address as Address, eth);
  }
  return { user, address: address as Address };
}

/** Watcher passes until it has read the head. */
async function catchUp() {
  for (;;) {
    const result = await watchOnce(watcher);
    if (result.lastBlock === (await chain.head())) {
      return;
    }
  }
}

async function creditAll() {
  await chain.mine(N);
  await catchUp();
}

async function expectCustodyEqualsChain() {
  const report = await custodyReport(db, { config, client: chain.client, hotAddress: hot.address });
  expect(
    report.map((l) => `${l.place} ${l.currency} ${l.difference}`),
    JSON.stringify(report),
  ).toEqual(["deposits ETH 0", "deposits USDT 0", "hot ETH 0", "hot USDT 0"]);
  return report;
}

async function expectReconciled() {
  const report = await reconcileLedger(db);
  expect(report.ok, JSON.stringify(report).slice(0, 500)).toBe(true);
}

async function sweepsOf(address: string) {
  return db.select().from(chainSweeps).where(eq(chainSweeps.address, address)).orderBy(asc(chainSweeps.id));
}

describe("sweeping deposit addresses to the hot wallet", () => {
  it("sweeps 3 addresses (gas topped up where missing), ends with every token in the hot wallet and custody equal to the chain", async () => {
    const a = await depositor("150", "0.5");
    const b = await depositor("275.5");
    const c = await depositor("1000.000001");
    // Below the sweep's minimum: credited, and left where it is.
    const small = await depositor("40");
    await creditAll();
    await expectCustodyEqualsChain();
    const hotBefore = await chain.usdtBalance(hot.address);

    const first = await runSweeps(sweepDeps());
    expect(first.map((s) => s.status)).toEqual(["sent", "sent", "sent"]);
    // a paid its own gas from its ETH; b and c got exactly the gas they lacked from the hot wallet.
    const [sa] = await sweepsOf(a.address);
    const [sb] = await sweepsOf(b.address);
    const [sc] = await sweepsOf(c.address);
    expect(sa?.gasTopUp).toBe("0.000000000000000000");
    expect(sa?.topUpHash).toBeNull();
    for (const s of [sb, sc]) {
      expect(new MoneyDecimal(s?.gasTopUp ?? "0").toFixed()).toBe(
        formatUnits(BigInt(s?.gas ?? 0) * BigInt(s?.maxFeePerGas ?? 0), 18),
      );
      expect(s?.topUpHash).toMatch(/^0x[0-9a-f]{64}$/);
    }
    expect(await sweepsOf(small.address)).toEqual([]);
    // Not confirmed yet: a rerun sends nothing new and plans nothing new.
    const again = await runSweeps(sweepDeps());
    expect(again.map((s) => s.status)).toEqual(["sent", "sent", "sent"]);
    await chain.mine(SWEEP_N);
    const done = await runSweeps(sweepDeps());
    expect(done.map((s) => s.status)).toEqual(["confirmed", "confirmed", "confirmed"]);

    expect(await chain.usdtBalance(hot.address)).toBe(hotBefore + parseUnits("1425.500001", 6));
    for (const d of [a, b, c]) {
      expect(await chain.usdtBalance(d.address)).toBe(0n);
      expect(await chain.client.getTransactionCount({ address: d.address })).toBe(1);
    }
    expect(await chain.usdtBalance(small.address)).toBe(parseUnits("40", 6));
    // The gas top-ups went to users' deposit addresses but are the platform's: no deposit recorded.
    await catchUp();
    for (const d of [a, b, c]) {
      const rows = await db.select().from(deposits).where(eq(deposits.userId, d.user.id));
      expect(rows.map((r) => r.currency).sort()).toEqual(d === a ? ["ETH", "USDT"] : ["USDT"]);
    }
    const report = await expectCustodyEqualsChain();
    expect(report.find((l) => l.place === "deposits" && l.currency === "USDT")?.ledger).toBe("40");

    // The next run sweeps a's own coin, minus its gas.
    const ethBefore = await chain.client.getBalance({ address: hot.address });
    const eth = await runSweeps(sweepDeps());
    expect(eth).toHaveLength(1);
    await chain.mine(SWEEP_N);
    expect((await runSweeps(sweepDeps())).map((s) => s.status)).toEqual(["confirmed"]);
    const [, native] = await sweepsOf(a.address);
    expect(native?.currency).toBe("ETH");
    expect(await chain.client.getBalance({ address: hot.address })).toBe(
      ethBefore + parseUnits(new MoneyDecimal(native?.amount ?? "0").toFixed(), 18),
    );
    // Nothing is left to sweep: the top-ups' change is below the minimum.
    expect(await runSweeps(sweepDeps())).toEqual([]);
    await expectCustodyEqualsChain();
    // Every fee paid is chain_gas's, to the wei.
    let fees = 0n;
    for (const s of await db.select().from(chainSweeps).orderBy(asc(chainSweeps.id))) {
      for (const hash of [s.topUpHash, s.sweepHash]) {
        if (hash) {
          const r = await chain.client.getTransactionReceipt({ hash: hash as Hex });
          fees += r.gasUsed * r.effectiveGasPrice;
        }
      }
    }
    const [gas] = await systemBalance(db, "real", "chain_gas");
    expect(gas?.balance && new MoneyDecimal(gas.balance).neg().toFixed()).toBe(formatUnits(fees, 18));
    await expectReconciled();
  });

  it("sends each transaction once when the run crashes after signing and is run again, twice at once", async () => {
    const d = await depositor("200");
    await creditAll();
    const hotBefore = await chain.usdtBalance(hot.address);
    const crash = async () => {
      throw new Error("process died before sending");
    };
    // Crash 1: the gas top-up is signed and stored, never sent.
    await expect(runSweeps(sweepDeps({ send: crash }))).rejects.toThrow(/died/);
    const [planned] = await sweepsOf(d.address);
    expect(planned?.status).toBe("gas_sent");
    await expect(chain.client.getTransaction({ hash: planned?.topUpHash as Hex })).rejects.toThrow();
    // Crash 2: the stored top-up goes out, then the transfer is signed and stored, never sent.
    let sends = 0;
    await expect(
      runSweeps(
        sweepDeps({
          send: async (raw) => {
            sends += 1;
            if (sends > 1) {
              throw new Error("process died before sending");
            }
            await chain.client.sendRawTransaction({ serializedTransaction: raw });
          },
        }),
      ),
    ).rejects.toThrow(/died/);
    const [signed] = await sweepsOf(d.address);
    expect(signed?.status).toBe("sent");
    expect(signed?.topUpHash).toBe(planned?.topUpHash);
    await expect(chain.client.getTransaction({ hash: signed?.sweepHash as Hex })).rejects.toThrow();
    // Two runs at once: the stored bytes go out, nothing is signed again.
    await Promise.all([runSweeps(sweepDeps()), runSweeps(sweepDeps())]);
    await chain.mine(SWEEP_N);
    await Promise.all([runSweeps(sweepDeps()), runSweeps(sweepDeps())]);
    const rows = await sweepsOf(d.address);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.status).toBe("confirmed");
    expect(rows[0]?.sweepHash).toBe(signed?.sweepHash);
    expect((await chain.client.getTransactionReceipt({ hash: signed?.sweepHash as Hex })).status).toBe(
      "success",
    );
    // One transfer from the address, one top-up to it, the amount arrived once.
    expect(await chain.client.getTransactionCount({ address: d.address })).toBe(1);
    expect(await chain.usdtBalance(hot.address)).toBe(hotBefore + parseUnits("200", 6));
    const entries = await db.execute<{ n: number }>(
      sql`select count(*)::int as n from journal_entries where idempotency_key like ${`chain-sweep:${rows[0]?.id}:%`}`,
    );
    expect(entries.rows[0]?.n).toBe(2);
    await expectCustodyEqualsChain();
    await expectReconciled();
  });

  it("pays a withdrawal after a sweep out of chain_custody:ERC20:hot, its gas to chain_gas", async () => {
    const tradePasswordHash = await hashSecret("123456");
    await setPolicy(db, "funding.withdraw.chains", { USDT: ["ERC20"], ETH: ["ERC20"] }, "test");
    await setPolicy(
      db,
      "chain.withdraw.confirmations",
      { default: N, byChain: { ERC20: { ETH: N, USDT: N } } },
      "test",
    );
    const network = hotWalletNetwork(config, chain.client);
    const wallet: HotWallet = { network, signer: hot };
    registerHotWalletRoute((w) => paysWithdrawal(network, w));
    const user = await newUser(tradePasswordHash);
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const address = await addWithdrawalAddress(db, user, { currency: "USDT", chain: "ERC20", address: to });
    await postEntry(db, {
      idempotencyKey: `grant:${user.id}`,
      kind: "test.grant",
      reference: { type: "test", id: user.id },
      postings: [
        { account: { system: "deposit_clearing:test", book: "real", currency: "USDT" }, amount: "-300" },
        { account: { userId: user.id, book: "real", wallet: "exchange", currency: "USDT" }, amount: "300" },
      ],
    });
    const w = await applyWithdrawal(
      db,
      createFixedPriceProvider(),
      user,
      {
        method: "crypto",
        currency: "USDT",
        address_id: address?.id ?? 0,
        amount: "300",
        trade_password: "123456",
        google_code: undefined,
      },
      NOW,
    );
    expect((await approveWithdrawal(db, { withdrawalId: w.id, operatorId: 1, actor: "test" })).status).toBe(
      "queued",
    );
    const hotLedger = async (currency: string) =>
      new MoneyDecimal(
        (await systemBalance(db, "real", hotCustody("ERC20"))).find((b) => b.currency === currency)
          ?.balance ?? "0",
      );
    const before = await hotLedger("USDT");
    expect((await stepHotWalletWithdrawal(db, wallet, w.id, NOW)).state).toBe("broadcast");
    await chain.mine(N);
    expect((await stepHotWalletWithdrawal(db, wallet, w.id, NOW)).state).toBe("success");
    // The coins that left the hot wallet left its custody account (minus what is there: it rose).
    expect((await hotLedger("USDT")).minus(before).toFixed()).toBe(new MoneyDecimal(w.received).toFixed());
    expect(await chain.usdtBalance(to)).toBe(parseUnits(new MoneyDecimal(w.received).toFixed(), 6));
    const clearing = await systemBalance(db, "real", "withdrawal_clearing:", true);
    expect(clearing).toEqual([]);
    await expectCustodyEqualsChain();
    await expectReconciled();
  });

  it("records the hot wallet's top-up once, refuses a sweep's transaction and one without coins for it", async () => {
    const arrival = await chain.transferUsdt(funder, hot.address, "500");
    await expect(
      recordHotWalletTopUp(db, {
        config,
        client: chain.client,
        hotAddress: hot.address,
        txHash: arrival,
        actor: "test",
      }),
    ).rejects.toMatchObject({ code: "HOT_WALLET_TOP_UP_UNCONFIRMED" });
    await chain.mine(N);
    const first = await recordHotWalletTopUp(db, {
      config,
      client: chain.client,
      hotAddress: hot.address,
      txHash: arrival,
      actor: "test",
    });
    expect(first).toEqual({
      applied: true,
      lines: [expect.objectContaining({ currency: "USDT", amount: "500" })],
    });
    const second = await recordHotWalletTopUp(db, {
      config,
      client: chain.client,
      hotAddress: hot.address,
      txHash: arrival.toUpperCase().replace("0X", "0x"),
      actor: "test",
    });
    expect(second.applied).toBe(false);
    const [sweep] = await db.select().from(chainSweeps).where(eq(chainSweeps.status, "confirmed")).limit(1);
    await expect(
      recordHotWalletTopUp(db, {
        config,
        client: chain.client,
        hotAddress: hot.address,
        txHash: sweep?.sweepHash ?? "",
        actor: "test",
      }),
    ).rejects.toMatchObject({ code: "HOT_WALLET_TOP_UP_IS_SWEEP" });
    const elsewhere = await chain.transferUsdt(funder, chain.accounts[2] as Address, "5");
    await chain.mine(N);
    await expect(
      recordHotWalletTopUp(db, {
        config,
        client: chain.client,
        hotAddress: hot.address,
        txHash: elsewhere,
        actor: "test",
      }),
    ).rejects.toMatchObject({ code: "HOT_WALLET_TOP_UP_EMPTY" });
    expect(await systemBalance(db, "real", "chain_funding:ERC20")).toEqual([
      { currency: "ETH", balance: "10.000000000000000000" },
      { currency: "USDT", balance: "500.000000000000000000" },
    ]);
    await expectCustodyEqualsChain();
    await expectReconciled();
  });

  it("takes the deposit key as an xprv or a recovery phrase matching CHAIN_XPUB, and keeps it out of rows and logs", async () => {
    const fromPhrase = sweepKeyFromText(TEST_PLATFORM_MNEMONIC, XPUB);
    expect(fromPhrase.signerAt(7).address).toBe(key.signerAt(7).address);
    expect(() => sweepKeyFromText(TEST_CHAIN_MNEMONIC, XPUB)).toThrow(/does not match CHAIN_XPUB/);
    expect(() => sweepKeyFromText(XPUB, XPUB)).toThrow(/extended public key/);
    expect(() => loadSweepKey({}, XPUB)).toThrow(/CHAIN_SWEEP_KEY_FILE/);
    expect(() => loadSweepKey({ CHAIN_SWEEP_KEY: XPRV, CHAIN_SWEEP_KEY_FILE: "k" }, XPUB)).toThrow(
      /not both/,
    );
    expect(JSON.stringify(key)).not.toContain("xprv");

    const root = HDKey.fromExtendedKey(XPRV).deriveChild(0);
    const secrets = [XPRV.toLowerCase(), TEST_PLATFORM_MNEMONIC];
    for (let i = 0; i < 6; i++) {
      secrets.push(Buffer.from(root.deriveChild(i).privateKey ?? []).toString("hex"));
    }
    expect(logs.length).toBeGreaterThan(5);
    for (const line of logs) {
      for (const secret of secrets) {
        expect(line.toLowerCase()).not.toContain(secret);
      }
    }
    const tables = await db.execute<{ name: string }>(
      sql`select tablename as name from pg_tables where schemaname = 'public' order by tablename`,
    );
    for (const { name } of tables.rows) {
      for (const secret of secrets) {
        const hits = await db.execute(
          sql`select 1 from ${sql.identifier(name)} t where lower(t::text) like ${`%${secret}%`} limit 1`,
        );
        expect(hits.rows, name).toHaveLength(0);
      }
    }
    const planned = await db
      .select()
      .from(chainSweeps)
      .where(and(eq(chainSweeps.network, "ERC20")));
    expect(planned.length).toBeGreaterThanOrEqual(5);
  });
});
