import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import type { Page } from "playwright-core";
import type { Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  startTestChain,
  type TestChain,
  testXprv,
  testXpub,
} from "../../packages/domain/src/test-support/index.ts";
import { signInAdmin } from "./operators.ts";
import { type Platform, screenshotsDir, startPlatform } from "./platform.ts";
import { confirmModal, pageAs, registerUser, trpcMutation } from "./users.ts";

/**
 * Withdrawals paid by the hot wallet on a real EVM node, seen in the browser, on one platform: the
 * user's USDT arrives on chain at their own address; a withdrawal the operator approves is signed and
 * sent by the worker, and the record shows broadcast, confirming n/N and done with its transaction;
 * a second one passes the daily hot-wallet limit, waits on the back office's chain page and goes
 * out when the operator releases it. A credited deposit whose block is then replaced opens a chain
 * alert on the same page, which the operator marks looked into. Screenshots of that page go to
 * docs/screenshots/admin (light and dark).
 */
const TRADE_PASSWORD = "246810";
const PAYOUT_CONFIRMATIONS = 3;
/** The sweep's confirmations (policy chain.sweep.confirmations, its default). */
const SWEEP_CONFIRMATIONS = 12;
const HOT_KEY = `0x${randomBytes(32).toString("hex")}` as Hex;
const DESTINATION = `0x${"cd".repeat(20)}`;

let chain: TestChain;
let platform: Platform;
let user: Page;
let operator: Page;
let db: pg.Client;
let token: string;
let depositAddress: Hex;

const rpc = (method: string, params: unknown[] = []) =>
  chain.client.request({ method, params } as never) as Promise<unknown>;

async function withdrawalRow(id: number) {
  const { rows } = await db.query<{ status: string; tx_hash: string | null }>(
    "select status, tx_hash from withdrawals where id = $1",
    [id],
  );
  return rows[0];
}

async function latestWithdrawalId(): Promise<number> {
  const { rows } = await db.query<{ id: string }>("select id from withdrawals order by id desc limit 1");
  return Number(rows[0]?.id ?? 0);
}

/** The user's withdrawal records, read again until `read` answers what is expected. */
async function pollRecord<T>(read: (page: Page) => Promise<T>, expected: (value: T) => boolean) {
  await expect
    .poll(
      async () => {
        await user.reload();
        await user.getByTestId("record-status").first().waitFor({ timeout: 10_000 });
        return read(user);
      },
      { timeout: 90_000, interval: 500 },
    )
    .toSatisfy(expected);
}

/** How long a state the worker reaches may take on a loaded machine (its payout loop polls every 5 s). */
const STATE_WAIT = { timeout: 90_000, interval: 250 };

const firstStatus = (page: Page) => page.getByTestId("record-status").first().getAttribute("data-status");

/** The user applies, in the browser, to withdraw 100 USDT to their saved address. */
async function withdrawInBrowser() {
  await user.goto("/authenticationcj");
  await user.getByTestId("withdraw-terms").waitFor();
  await user.getByTestId("withdraw-address").click();
  await user.locator(".ant-select-item-option").first().click();
  await user.getByTestId("withdraw-amount").fill("100");
  await expect
    .poll(async () => (await user.getByTestId("withdraw-received").textContent()) ?? "")
    .toMatch(/95/);
  await user.getByTestId("withdraw-trade-password").fill(TRADE_PASSWORD);
  await user.getByTestId("withdraw-submit").click();
  await confirmModal(user, "withdraw-confirm");
  await user.waitForURL(/\/tbjl/);
}

/** The operator approves the newest withdrawal in the review queue. */
async function approveNewest(id: number) {
  await operator.goto("/admin/withdrawals");
  await operator.getByTestId(`admin-withdrawal-approve-${id}`).click();
  await confirmModal(operator, "admin-confirm-ok");
  await expect.poll(async () => (await withdrawalRow(id))?.status, { timeout: 15_000 }).not.toBe("pending");
}

async function waitForUsdt(amount: string) {
  await expect
    .poll(
      async () => {
        const { rows } = await db.query<{ balance: string }>(
          `select balance::text from ledger_accounts a join chain_addresses c on c.user_id = a.user_id
           where a.currency = 'USDT' and a.wallet = 'exchange' and a.bucket = 'available' and a.book = 'real'`,
        );
        return Number(rows[0]?.balance ?? 0);
      },
      { timeout: 60_000, interval: 250 },
    )
    .toBe(Number(amount));
}

beforeAll(async () => {
  chain = await startTestChain();
  const hot = privateKeyToAccount(HOT_KEY).address;
  // Coins put into the hot wallet from outside: recorded below by the operator, as payouts leave
  // chain_custody:ERC20:hot, which never gives more than the books say the hot wallet holds.
  const hotTopUps = [
    await chain.sendEth(chain.accounts[0] as Hex, hot, "10"),
    await chain.mintUsdt(hot, "10000"),
  ];
  await chain.mintUsdt(chain.accounts[1] as Hex, "1000");
  platform = await startPlatform({
    env: {
      CHAIN_RPC_URL: chain.rpcUrl,
      CHAIN_ID: String(chain.chainId),
      CHAIN_USDT_ADDRESS: chain.usdt,
      CHAIN_XPUB: testXpub(),
      // The watcher starts at the next block: every transfer of this test is after it.
      CHAIN_START_BLOCK: String((await chain.head()) + 1n),
      HOT_WALLET_PRIVATE_KEY: HOT_KEY,
    },
  });
  await platform.admin(
    "policy:set",
    "funding.withdraw.window",
    '{"start":0,"end":24,"timeZone":"Asia/Hong_Kong"}',
  );
  await platform.admin("policy:set", "funding.withdraw.turnoverRatio", '"0"');
  await platform.admin("policy:set", "chain.deposit.confirmations", '{"ERC20":{"ETH":1,"USDT":1}}');
  await platform.admin(
    "policy:set",
    "chain.withdraw.confirmations",
    JSON.stringify({
      default: PAYOUT_CONFIRMATIONS,
      byChain: { ERC20: { ETH: PAYOUT_CONFIRMATIONS, USDT: PAYOUT_CONFIRMATIONS } },
    }),
  );
  // The first withdrawal's 95 USDT fits today's limit; the second's would pass it.
  await platform.admin("policy:set", "chain.withdraw.dailyLimit", '{"ETH":"50","USDT":"150"}');
  // The node has the top-ups' confirmations (one, by the policy above): the operator records them.
  await chain.mine(1);
  for (const hash of hotTopUps) {
    expect(await platform.admin("chain:hot-top-up", hash)).toContain('"applied": true');
  }

  db = new pg.Client({ connectionString: platform.databaseUrl });
  await db.connect();
  token = await registerUser(platform, `chain-out-${Date.now()}@example.com`, "Secret123");
  await trpcMutation(platform, token, "identity.setTradePassword", {
    login_password: "Secret123",
    trade_password: TRADE_PASSWORD,
    confirm_password: TRADE_PASSWORD,
  });
  await trpcMutation(platform, token, "withdrawalAddress.create", {
    currency: "USDT",
    chain: "ERC20",
    address: DESTINATION,
    remark: "cold",
  });
  const options = (await fetch(`${platform.baseUrl}/trpc/deposit.options`, {
    headers: { authorization: `Bearer ${token}` },
  }).then((r) => r.json())) as {
    result: { data: { addresses: { currency: string; chain: string; address: string }[] } };
  };
  depositAddress = options.result.data.addresses.find((a) => a.currency === "USDT" && a.chain === "ERC20")
    ?.address as Hex;
  expect(depositAddress).toMatch(/^0x[0-9a-fA-F]{40}$/);
  user = await pageAs(platform, token);
  operator = await (await platform.newContext()).newPage();
}, 300_000);
afterAll(async () => {
  await db?.end();
  await platform?.close();
  await chain?.close();
});

describe("hot-wallet withdrawals in the browser", () => {
  it("funds the user on chain; a deposit whose block is replaced after its credit opens a chain alert", async () => {
    await chain.transferUsdt(chain.accounts[1] as Hex, depositAddress, "500");
    await waitForUsdt("500");
    const snapshot = await chain.snapshot();
    await chain.transferUsdt(chain.accounts[1] as Hex, depositAddress, "20");
    await waitForUsdt("520");
    // The block that held the 20 USDT is replaced: credited once, never again, and an alert opens.
    await chain.revert(snapshot);
    await chain.mine(2);
    await vi.waitFor(
      async () => {
        const { rows } = await db.query("select id from chain_alerts where resolved_at is null");
        expect(rows).toHaveLength(1);
      },
      { timeout: 60_000, interval: 250 },
    );
    await waitForUsdt("520");
  }, 300_000);

  it("pays an approved withdrawal from the hot wallet: broadcast, confirming n/N, done with its transaction", async () => {
    await signInAdmin(operator, platform);
    await withdrawInBrowser();
    const id = await latestWithdrawalId();
    // Mining paused: the signed payout waits in the node's pool, so "broadcast" can be seen.
    await rpc("miner_stop");
    await approveNewest(id);
    await expect.poll(async () => (await withdrawalRow(id))?.status, STATE_WAIT).toBe("broadcast");
    await pollRecord(firstStatus, (s) => s === "broadcast");
    const hash = (await withdrawalRow(id))?.tx_hash ?? "";
    expect(hash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await user.getByTestId("record-confirmations").first().textContent()).toBe(
      `0/${PAYOUT_CONFIRMATIONS}`,
    );
    expect(await user.getByTestId("record-tx-hash").first().getAttribute("title")).toBe(hash);

    // One block includes it: confirming 1/N; N − 1 more and it is done.
    await chain.mine(1);
    await expect.poll(async () => (await withdrawalRow(id))?.status, STATE_WAIT).toBe("confirming");
    await pollRecord(
      async (page) =>
        `${await firstStatus(page)} ${await page.getByTestId("record-confirmations").first().textContent()}`,
      (s) => s === `confirming 1/${PAYOUT_CONFIRMATIONS}`,
    );
    await chain.mine(PAYOUT_CONFIRMATIONS - 1);
    await rpc("miner_start");
    await expect.poll(async () => (await withdrawalRow(id))?.status, STATE_WAIT).toBe("success");
    await pollRecord(firstStatus, (s) => s === "success");
    expect(await user.getByTestId("record-tx-hash").first().getAttribute("title")).toBe(hash);
    const receipt = await chain.client.getTransactionReceipt({ hash: hash as Hex });
    expect(receipt.status).toBe("success");
    expect(await chain.usdtBalance(DESTINATION as Hex)).toBe(95_000_000n);
  }, 300_000);

  it("holds a withdrawal over the daily limit on the chain page until the operator releases it", async () => {
    await withdrawInBrowser();
    const id = await latestWithdrawalId();
    await approveNewest(id);
    await expect
      .poll(async () => (await withdrawalRow(id))?.status, { timeout: 30_000 })
      .toBe("awaiting_release");

    // The operator sweeps the user's deposit address to the hot wallet (the deposit key is given to
    // the command alone): gas topped up and the USDT sent, then confirmed after its confirmations.
    const sweepKey = { CHAIN_SWEEP_KEY: testXprv() };
    expect(await platform.adminWithEnv(sweepKey, "chain:sweep")).toContain("planned sweep");
    await chain.mine(SWEEP_CONFIRMATIONS);
    expect(await platform.adminWithEnv(sweepKey, "chain:sweep")).toContain("no sweep is open");
    const { rows: sweeps } = await db.query<{ id: string; amount: string; sweep_hash: string }>(
      "select id, trim_scale(amount)::text as amount, sweep_hash from chain_sweeps order by id",
    );
    expect(sweeps.map((r) => r.amount)).toEqual(["500"]);
    const sweep = sweeps[0];

    await operator.goto("/admin/chain");
    await operator.getByTestId(`admin-chain-held-${id}`).waitFor({ timeout: 30_000 });
    // The sweep is listed with its status and transaction.
    const sweepStatus = operator.getByTestId(`admin-chain-sweep-status-${sweep?.id}`);
    await sweepStatus.waitFor({ timeout: 30_000 });
    expect(await sweepStatus.getAttribute("data-status")).toBe("confirmed");
    const sweepRow = (await operator.getByTestId(`admin-chain-sweep-${sweep?.id}`).textContent()) ?? "";
    expect(sweepRow).toContain("500 USDT");
    expect(await operator.getByTestId(`admin-chain-sweep-tx-${sweep?.id}`).getAttribute("title")).toBe(
      sweep?.sweep_hash,
    );
    const alert = operator.locator('[data-testid^="admin-chain-alert-resolve-"]');
    await alert.first().waitFor();
    expect(await alert.count()).toBe(1);
    await shootChainPage();

    // The alert is marked looked into: it leaves the open list.
    await alert.first().click();
    await confirmModal(operator, "admin-confirm-ok");
    await expect.poll(() => alert.count(), { timeout: 15_000 }).toBe(0);
    const { rows } = await db.query<{ resolved_by: string }>("select resolved_by from chain_alerts");
    expect(rows.map((r) => r.resolved_by)).toEqual(["operator:1"]);

    await operator.getByTestId(`admin-chain-release-${id}`).click();
    await confirmModal(operator, "admin-confirm-ok");
    await expect
      .poll(() => operator.getByTestId(`admin-chain-held-${id}`).count(), { timeout: 15_000 })
      .toBe(0);
    await expect
      .poll(async () => (await withdrawalRow(id))?.status, STATE_WAIT)
      .toMatch(/^(confirming|success)$/);
    await chain.mine(PAYOUT_CONFIRMATIONS);
    await expect.poll(async () => (await withdrawalRow(id))?.status, STATE_WAIT).toBe("success");
    await pollRecord(firstStatus, (s) => s === "success");
    expect(await chain.usdtBalance(DESTINATION as Hex)).toBe(190_000_000n);
    expect(await platform.admin("reconcile")).toContain("ledger balances");
  }, 300_000);
});

/** The chain page with a held payout and an open alert, light and dark, desktop, in English. */
async function shootChainPage() {
  const out = screenshotsDir("admin");
  mkdirSync(out, { recursive: true });
  for (const theme of ["light", "dark"]) {
    await operator.evaluate((t) => localStorage.setItem("theme", t), theme);
    await operator.reload();
    await operator.locator('[data-testid^="admin-chain-held-"]').first().waitFor();
    await operator.locator('[data-testid^="admin-chain-alert-"]').first().waitFor();
    await operator.screenshot({ path: join(out, `chain-en-${theme}-desktop.png`) });
  }
}
