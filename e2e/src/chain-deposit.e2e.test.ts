import pg from "pg";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startTestChain, type TestChain, testXpub } from "../../packages/domain/src/test-support/index.ts";
import { type Platform, startPlatform } from "./platform.ts";
import { pageAs, registerUser } from "./users.ts";

/**
 * A deposit on a real EVM node, seen in the browser: the user's own address on the deposit page, a
 * USDT transfer to it on the node, the record "confirming n/N", then the credit after N blocks.
 */
const CONFIRMATIONS = 3;
let chain: TestChain;
let platform: Platform;
let user: Page;

beforeAll(async () => {
  chain = await startTestChain();
  await chain.mintUsdt(chain.accounts[1] as `0x${string}`, "1000");
  platform = await startPlatform({
    env: {
      CHAIN_RPC_URL: chain.rpcUrl,
      CHAIN_ID: String(chain.chainId),
      CHAIN_USDT_ADDRESS: chain.usdt,
      CHAIN_XPUB: testXpub(),
    },
  });
  await platform.admin(
    "policy:set",
    "chain.deposit.confirmations",
    JSON.stringify({ ERC20: { ETH: CONFIRMATIONS, USDT: CONFIRMATIONS } }),
  );
  // The watcher starts at the node's head: wait until it has read a block, so the transfer is after it.
  const db = new pg.Client({ connectionString: platform.databaseUrl });
  await db.connect();
  try {
    await vi.waitFor(
      async () => {
        const { rows } = await db.query<{ n: number }>("select count(*)::int as n from chain_blocks");
        if (!(rows[0] && rows[0].n > 0)) {
          throw new Error("the chain watcher has read no block yet");
        }
      },
      { timeout: 60_000, interval: 250 },
    );
  } finally {
    await db.end();
  }
  const token = await registerUser(platform, `chain-${Date.now()}@example.com`, "Secret123");
  user = await pageAs(platform, token);
}, 180_000);
afterAll(async () => {
  await platform?.close();
  await chain?.close();
});

describe("a deposit on the chain in the browser", () => {
  it("shows the user's address, then confirming n/N, then the credit", async () => {
    await user.goto("/authenticationrj");
    const address = ((await user.getByTestId("deposit-address").first().textContent()) ?? "").trim();
    expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    await expect
      .poll(() => user.getByTestId("deposit-confirmations").first().textContent())
      .toBe(String(CONFIRMATIONS));
    await user.getByTestId("deposit-qr").first().waitFor();

    await chain.transferUsdt(chain.accounts[1] as `0x${string}`, address as `0x${string}`, "12.5");
    await user.goto("/rechargeRecord");
    await expect
      .poll(
        async () => {
          await user.reload();
          return user
            .getByTestId("record-confirmations")
            .first()
            .textContent({ timeout: 2000 })
            .catch(() => "");
        },
        { timeout: 60_000 },
      )
      .toMatch(/1\/3/);
    expect(await user.getByTestId("record-status").first().getAttribute("data-status")).toBe("pending");

    await chain.mine(CONFIRMATIONS - 1);
    await expect
      .poll(
        async () => {
          await user.reload();
          return user
            .getByTestId("record-status")
            .first()
            .getAttribute("data-status", { timeout: 2000 })
            .catch(() => "");
        },
        { timeout: 60_000 },
      )
      .toBe("success");
    expect(await user.getByTestId("record-amount").first().textContent()).toContain("12.5");
  });
});
