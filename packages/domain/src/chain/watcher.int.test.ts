import { randomBytes } from "node:crypto";
import { MoneyDecimal } from "@northstar/shared/money";
import { and, asc, eq } from "drizzle-orm";
import { type Address, encodeFunctionData, erc20Abi, type Hex, parseEther, parseUnits, toHex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "../db/client.ts";
import { confirmDeposit, deposits, rejectDeposit } from "../funding/index.ts";
import { type User, users } from "../identity/index.ts";
import { getUserBalances, reconcileLedger } from "../ledger/index.ts";
import { createFixedPriceProvider } from "../markets/index.ts";
import { setPolicy } from "../policy/index.ts";
import { seedDatabase } from "../setup/index.ts";
import { createTestDatabase, startTestChain, type TestChain, testXpub } from "../test-support/index.ts";
import { depositAddressFor } from "./addresses.ts";
import { chainAlerts, chainTransfers } from "./chain.table.ts";
import { claimChainDeposit } from "./claims.ts";
import { type ChainConfig, chainClient } from "./config.ts";
import { listOpenChainAlerts, resolveChainAlert, type WatcherDeps, watchOnce } from "./watcher.ts";

/**
 * The chain watcher against a real EVM node in this process: deposits credited after their
 * confirmations and not before, below the minimum recorded and never credited, reorganisations
 * before and after the credit, restarts and repeated passes; the ledger reconciles throughout.
 */
// Users' addresses come from another phrase than the node's funded accounts, as in production.
const XPUB = testXpub();
const CONFIRMATIONS = 3;

let db: Db;
let chain: TestChain;
let deps: WatcherDeps;
let funder: Address;
let teardown: () => Promise<void>;

beforeAll(async () => {
  const database = await createTestDatabase();
  const conn = createDb(database.url, { max: 10 });
  conn.pool.on("error", () => {});
  db = conn.db;
  await seedDatabase(db);
  await setPolicy(
    db,
    "chain.deposit.confirmations",
    { ERC20: { ETH: CONFIRMATIONS, USDT: CONFIRMATIONS } },
    "test",
  );
  chain = await startTestChain();
  funder = chain.accounts[1] as Address;
  await chain.mintUsdt(funder, "1000000");
  const config: ChainConfig = {
    network: "ERC20",
    chainId: chain.chainId,
    rpcUrl: chain.rpcUrl,
    xpub: XPUB,
    nativeCurrency: "ETH",
    tokens: [{ currency: "USDT", address: chain.usdt.toLowerCase() as Address, decimals: 6 }],
  };
  deps = { db, client: chainClient(config), config, prices: createFixedPriceProvider(), startBlock: 0n };
  teardown = async () => {
    await chain.close();
    await conn.close();
    await database.drop();
  };
});
afterAll(async () => {
  await teardown?.();
});

async function newUser(): Promise<{ id: number; address: Address; user: User }> {
  const uid = String(10_000_000 + Math.floor(Math.random() * 89_999_999));
  const [user] = await db
    .insert(users)
    .values({
      uid,
      passwordHash: "x",
      nationality: "GB",
      inviteCode: `C${randomBytes(4).toString("hex")}`,
      nickname: `U${uid}`,
    })
    .returning();
  if (!user) {
    throw new Error("insert failed");
  }
  const address = await depositAddressFor(db, deps.config, user.id);
  return { id: user.id, address: address.address as Address, user };
}

async function exchange(userId: number, currency: string): Promise<string> {
  const balances = await getUserBalances(db, userId, "real");
  const row = balances.find((b) => b.wallet === "exchange" && b.currency === currency);
  return new MoneyDecimal(row?.available ?? "0").toString();
}

async function depositsOf(userId: number) {
  return db.select().from(deposits).where(eq(deposits.userId, userId)).orderBy(asc(deposits.id));
}

async function expectReconciled() {
  const report = await reconcileLedger(db);
  expect(report.ok, JSON.stringify(report)).toBe(true);
}

/** Passes until the watcher has read the node's head. */
async function catchUp() {
  for (;;) {
    const result = await watchOnce(deps);
    if (result.lastBlock === (await chain.head())) {
      return result;
    }
  }
}

describe("chain deposits", () => {
  it("allocates each user one stable address of the xpub", async () => {
    const a = await newUser();
    const b = await newUser();
    expect(a.address).not.toBe(b.address);
    expect((await depositAddressFor(db, deps.config, a.id)).address).toBe(a.address);
  });

  it("credits a USDT transfer after N confirmations and not before, showing n/N meanwhile", async () => {
    const user = await newUser();
    await chain.transferUsdt(funder, user.address, "25.123456");
    await catchUp();
    let [deposit] = await depositsOf(user.id);
    expect(deposit).toMatchObject({
      status: "pending",
      confirmations: 1,
      confirmationsRequired: CONFIRMATIONS,
    });
    expect(await exchange(user.id, "USDT")).toBe("0");
    // Operators do not decide a deposit the chain settles.
    await expect(
      confirmDeposit(db, deps.prices, { depositId: deposit?.id ?? 0, operatorId: 1, actor: "test" }),
    ).rejects.toMatchObject({ code: "DEPOSIT_ON_CHAIN" });
    await expect(
      rejectDeposit(db, { depositId: deposit?.id ?? 0, operatorId: 1, actor: "test", reason: "no" }),
    ).rejects.toMatchObject({ code: "DEPOSIT_ON_CHAIN" });

    await chain.mine(CONFIRMATIONS - 2);
    await catchUp();
    [deposit] = await depositsOf(user.id);
    expect(deposit).toMatchObject({ status: "pending", confirmations: CONFIRMATIONS - 1 });
    expect(await exchange(user.id, "USDT")).toBe("0");

    await chain.mine(1);
    await catchUp();
    [deposit] = await depositsOf(user.id);
    expect(deposit?.status).toBe("success");
    expect(await exchange(user.id, "USDT")).toBe("25.123456");
    // More blocks and more passes change nothing.
    await chain.mine(2);
    await catchUp();
    await catchUp();
    expect(await exchange(user.id, "USDT")).toBe("25.123456");
    expect(await depositsOf(user.id)).toHaveLength(1);
    await expectReconciled();
  });

  it("credits native ETH to the last wei", async () => {
    const user = await newUser();
    await chain.sendEth(funder, user.address, "0.123456789012345678");
    await chain.mine(CONFIRMATIONS);
    await catchUp();
    expect(await exchange(user.id, "ETH")).toBe("0.123456789012345678");
    await expectReconciled();
  });

  it("records a transfer below the minimum and never credits it", async () => {
    const user = await newUser();
    await chain.transferUsdt(funder, user.address, "0.5");
    await chain.mine(CONFIRMATIONS + 1);
    await catchUp();
    const [deposit] = await depositsOf(user.id);
    expect(deposit).toMatchObject({ status: "failed", amount: expect.stringMatching(/^0\.5/) });
    const [transfer] = await db.select().from(chainTransfers).where(eq(chainTransfers.userId, user.id));
    expect(transfer?.status).toBe("below_minimum");
    expect(await exchange(user.id, "USDT")).toBe("0");
    await expectReconciled();
  });

  it("undoes a transfer whose block is replaced before N, and the same transfer again is the same deposit", async () => {
    const user = await newUser();
    const before = await chain.snapshot();
    const raw = await chain.signUsdtTransfer(funder, user.address, "40");
    const hash = await chain.sendRaw(raw);
    await catchUp();
    const [seen] = await depositsOf(user.id);
    expect(seen).toMatchObject({ status: "pending", confirmations: 1, txHash: hash });

    // The block is replaced by empty ones: the transfer is gone.
    await chain.revert(before);
    await chain.mine(2);
    const result = await catchUp();
    expect(result.reorgForkedAfter).not.toBeNull();
    const [transfer] = await db.select().from(chainTransfers).where(eq(chainTransfers.userId, user.id));
    expect(transfer).toMatchObject({ status: "orphaned", blockNumber: null });
    expect((await depositsOf(user.id))[0]).toMatchObject({ status: "pending", confirmations: 0 });
    await chain.mine(CONFIRMATIONS + 1);
    await catchUp();
    expect(await exchange(user.id, "USDT")).toBe("0");

    // The same signed transaction lands in a later block: the same transfer, the same deposit.
    expect(await chain.sendRaw(raw)).toBe(hash);
    await chain.mine(CONFIRMATIONS - 1);
    await catchUp();
    const deposits = await depositsOf(user.id);
    expect(deposits).toHaveLength(1);
    expect(deposits[0]).toMatchObject({ id: seen?.id, status: "success", confirmations: CONFIRMATIONS });
    expect(await exchange(user.id, "USDT")).toBe("40");
    await expectReconciled();
  });

  it("reports a reorg after the credit to operators and never credits twice", async () => {
    const user = await newUser();
    const before = await chain.snapshot();
    const raw = await chain.signUsdtTransfer(funder, user.address, "70");
    await chain.sendRaw(raw);
    await chain.mine(CONFIRMATIONS);
    await catchUp();
    expect(await exchange(user.id, "USDT")).toBe("70");

    await chain.revert(before);
    await chain.mine(CONFIRMATIONS + 2);
    await catchUp();
    // The same transaction again in the new chain, confirmed again: still credited once.
    await chain.sendRaw(raw);
    await chain.mine(CONFIRMATIONS + 2);
    await catchUp();
    const [transfer] = await db.select().from(chainTransfers).where(eq(chainTransfers.userId, user.id));
    expect(transfer?.status).toBe("credited");
    const alerts = await listOpenChainAlerts(db, "ERC20");
    expect(alerts.filter((a) => a.transferId === transfer?.id)).toHaveLength(1);
    // Another pass raises no second alert and credits nothing more.
    await catchUp();
    expect(
      await db
        .select()
        .from(chainAlerts)
        .where(and(eq(chainAlerts.transferId, transfer?.id ?? 0))),
    ).toHaveLength(1);
    expect(await exchange(user.id, "USDT")).toBe("70");
    await expectReconciled();
    // An operator looks into it and resolves it, once.
    const alert = alerts.find((a) => a.transferId === transfer?.id);
    expect(await resolveChainAlert(db, alert?.id ?? 0, "operator:test")).toBe(true);
    expect(await resolveChainAlert(db, alert?.id ?? 0, "operator:test")).toBe(false);
    expect((await listOpenChainAlerts(db, "ERC20")).some((a) => a.id === alert?.id)).toBe(false);
  });

  it("orphans a reported transfer whose block lost before the watcher reached it, crediting nothing", async () => {
    const { id, address, user } = await newUser();
    const before = await chain.snapshot();
    const hash = await chain.transferUsdt(funder, address, "33");
    // Reported by the user before the watcher has read its block.
    const { depositId } = await claimChainDeposit(db, deps.client, deps.config, user, {
      currency: "USDT",
      chain: "ERC20",
      amount: "33",
      tx_hash: hash,
    });
    expect((await depositsOf(id))[0]).toMatchObject({ id: depositId, status: "pending" });
    // That block is replaced before the watcher gets there.
    await chain.revert(before);
    await chain.mine(CONFIRMATIONS + 2);
    await catchUp();
    const [transfer] = await db.select().from(chainTransfers).where(eq(chainTransfers.userId, id));
    expect(transfer).toMatchObject({ status: "orphaned", blockNumber: null });
    expect((await depositsOf(id))[0]).toMatchObject({ status: "pending", confirmations: 0 });
    expect(await exchange(id, "USDT")).toBe("0");
    await expectReconciled();
  });

  it("records a block of many transfers to many users at once and credits each once", async () => {
    const users = await Promise.all([newUser(), newUser(), newUser(), newUser()]);
    const rpc = (method: string, params: unknown[] = []) =>
      chain.client.request({ method, params } as never) as Promise<unknown>;
    // Six transfers mined into one block: four of USDT (the last below the minimum) and two of ETH.
    await rpc("miner_stop");
    const usdt = ["7", "8", "9", "0.5"];
    const hashes: Hex[] = [];
    for (const [i, user] of users.entries()) {
      hashes.push(
        (await rpc("eth_sendTransaction", [
          {
            from: funder,
            to: chain.usdt,
            gas: toHex(100_000),
            data: encodeFunctionData({
              abi: erc20Abi,
              functionName: "transfer",
              args: [user.address, parseUnits(usdt[i] as string, 6)],
            }),
          },
        ])) as Hex,
      );
    }
    for (const user of users.slice(0, 2)) {
      hashes.push(
        (await rpc("eth_sendTransaction", [
          { from: funder, to: user.address, value: toHex(parseEther("0.3")), gas: toHex(21_000) },
        ])) as Hex,
      );
    }
    await rpc("evm_mine");
    await rpc("miner_start");
    const receipts = await Promise.all(hashes.map((hash) => chain.client.getTransactionReceipt({ hash })));
    const block = await chain.client.getBlock({ blockNumber: receipts[0]?.blockNumber ?? 0n });
    expect(block.transactions).toHaveLength(6);
    const pass = await catchUp();
    expect(pass.transfersSeen).toBe(6);
    const seenAt = Number((pass.lastBlock ?? 0n) - block.number + 1n);
    expect(seenAt).toBeLessThan(CONFIRMATIONS);
    const recorded = await db
      .select()
      .from(chainTransfers)
      .where(eq(chainTransfers.blockHash, block.hash as Hex))
      .orderBy(asc(chainTransfers.id));
    expect(recorded.map((t) => t.status).sort()).toEqual([
      "below_minimum",
      "confirming",
      "confirming",
      "confirming",
      "confirming",
      "confirming",
    ]);
    for (const [i, user] of users.entries()) {
      const mine = await depositsOf(user.id);
      expect(mine).toHaveLength(i < 2 ? 2 : 1);
      for (const d of mine) {
        const refused = d.amount.startsWith("0.5") && d.currency === "USDT";
        expect(d.status).toBe(refused ? "failed" : "pending");
        expect(d.confirmations).toBe(refused ? 1 : seenAt);
      }
    }
    await chain.mine(CONFIRMATIONS - 1 - seenAt);
    expect((await catchUp()).credited).toBe(0);
    expect((await depositsOf(users[0]?.id ?? 0)).map((d) => d.confirmations)).toEqual([
      CONFIRMATIONS - 1,
      CONFIRMATIONS - 1,
    ]);
    expect(await exchange(users[0]?.id ?? 0, "USDT")).toBe("0");
    await chain.mine(1);
    expect((await catchUp()).credited).toBe(5);
    expect((await catchUp()).credited).toBe(0);
    for (const [i, user] of users.entries()) {
      expect(await exchange(user.id, "USDT")).toBe(i < 3 ? usdt[i] : "0");
      expect(await exchange(user.id, "ETH")).toBe(i < 2 ? "0.3" : "0");
    }
    expect((await depositsOf(users[1]?.id ?? 0)).map((d) => [d.status, d.confirmations])).toEqual([
      ["success", CONFIRMATIONS],
      ["success", CONFIRMATIONS],
    ]);
    await expectReconciled();
  });

  it("with nothing recorded starts at the start block (CHAIN_START_BLOCK), else at the head, and logs which", async () => {
    await chain.mine(3);
    const head = await chain.head();
    const lines: string[] = [];
    const fresh = (network: string, startBlock?: bigint): WatcherDeps => ({
      ...deps,
      config: { ...deps.config, network },
      startBlock,
      log: (line) => lines.push(line),
    });
    const fromStart = await watchOnce(fresh("ERC20-start", head - 2n));
    expect(fromStart).toMatchObject({ lastBlock: head, blocks: 3 });
    expect(lines).toEqual([
      `chain ERC20-start: nothing recorded yet; started at block ${head - 2n} (CHAIN_START_BLOCK)`,
    ]);
    const fromHead = await watchOnce(fresh("ERC20-head"));
    expect(fromHead).toMatchObject({ lastBlock: head, blocks: 1 });
    expect(lines[1]).toBe(
      `chain ERC20-head: nothing recorded yet; started at the node's head, block ${head}`,
    );
    // With a block recorded, it resumes after it whatever the start block says, and logs nothing more.
    await chain.mine(1);
    const resumed = await watchOnce(fresh("ERC20-head", 0n));
    expect(resumed).toMatchObject({ lastBlock: head + 1n, blocks: 1 });
    expect(lines).toHaveLength(2);
  });

  it("catches up after a stop with nothing lost or doubled, and two passes at once credit once", async () => {
    const users = await Promise.all([newUser(), newUser(), newUser()]);
    // The watcher is stopped while transfers arrive and blocks pass.
    for (const [i, user] of users.entries()) {
      await chain.transferUsdt(funder, user.address, `${10 + i}`);
      await chain.sendEth(funder, user.address, "0.2");
      await chain.mine(1);
    }
    await chain.mine(CONFIRMATIONS);
    // Two watchers at once (a job delivered twice, a lease handed over mid-pass).
    await Promise.all([catchUp(), catchUp()]);
    for (const [i, user] of users.entries()) {
      expect(await exchange(user.id, "USDT")).toBe(`${10 + i}`);
      expect(await exchange(user.id, "ETH")).toBe("0.2");
      expect(await depositsOf(user.id)).toHaveLength(2);
    }
    await expectReconciled();
  });
});
