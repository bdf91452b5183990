import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type ChainConfig,
  chainClient,
  depositAddressFor,
  hotWalletSignerFromKey,
  watchOnce,
} from "@northstar/domain/chain";
import { createFixedPriceProvider } from "@northstar/domain/markets";
import { setPolicy } from "@northstar/domain/policy";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  startTestChain,
  TEST_CHAIN_MNEMONIC,
  TEST_PLATFORM_MNEMONIC,
  type TestChain,
  testXprv,
  testXpub,
} from "../../../../packages/domain/src/test-support/index.ts";
import { runAdminCliWithEnv } from "../test/cli.ts";
import { expectTrpcRefusal } from "../test/fixtures.ts";
import { createHarness, type Harness } from "../test/harness.ts";
import { admin, dataOf, operatorToken, userIdOf } from "../test/money.ts";

/**
 * The chain's custody commands as an operator runs them (`pnpm admin chain:…`, a child process)
 * against a test node: the custody report's difference, a hot-wallet top-up recorded, a sweep run
 * until confirmed, and the deposit key in no output line.
 */
type Address = `0x${string}`;
const XPUB = testXpub();
const XPRV = testXprv();
const HOT_KEY = `0x${randomBytes(32).toString("hex")}`;
const HOT = hotWalletSignerFromKey(HOT_KEY).address;
const N = 3;

let h: Harness;
let chain: TestChain;
let config: ChainConfig;
let keyDir: string;
let env: Record<string, string>;
const outputs: string[] = [];

beforeAll(async () => {
  chain = await startTestChain();
  await chain.mintUsdt(chain.accounts[1] as Address, "1000");
  config = {
    network: "ERC20",
    chainId: chain.chainId,
    rpcUrl: chain.rpcUrl,
    xpub: XPUB,
    nativeCurrency: "ETH",
    tokens: [{ currency: "USDT", address: chain.usdt.toLowerCase() as Address, decimals: 6 }],
  };
  h = await createHarness({ chain: config });
  await setPolicy(h.db, "chain.deposit.confirmations", { ERC20: { ETH: N, USDT: N } }, "test");
  await setPolicy(h.db, "chain.sweep.confirmations", N, "test");
  keyDir = mkdtempSync(join(tmpdir(), "sweep-key-"));
  writeFileSync(join(keyDir, "key"), `${XPRV}\n`, { mode: 0o600 });
  env = {
    CHAIN_RPC_URL: chain.rpcUrl,
    CHAIN_ID: String(chain.chainId),
    CHAIN_USDT_ADDRESS: chain.usdt,
    CHAIN_XPUB: XPUB,
    HOT_WALLET_PRIVATE_KEY: HOT_KEY,
    CHAIN_SWEEP_KEY_FILE: join(keyDir, "key"),
  };
});
afterAll(async () => {
  rmSync(keyDir, { recursive: true, force: true });
  await h?.close();
  await chain?.close();
});

const cli = async (...args: string[]) => {
  const run = await runAdminCliWithEnv(h, env, ...args);
  outputs.push(run.stdout, run.stderr);
  return run;
};

async function catchUp() {
  const deps = {
    db: h.db,
    client: chainClient(config),
    config,
    prices: createFixedPriceProvider(),
    startBlock: 0n,
  };
  for (;;) {
    if ((await watchOnce(deps)).lastBlock === (await chain.head())) {
      return;
    }
  }
}

// Each command starts node with tsx; on a busy machine that alone can take seconds.
describe("pnpm admin chain:…", { timeout: 180_000 }, () => {
  it("reports custody against the chain, records the hot wallet's top-up, sweeps a deposit to confirmation", async () => {
    const topUp = await chain.sendEth(chain.accounts[0] as Address, HOT, "5");
    await chain.mine(N);
    const before = await cli("chain:custody");
    expect(before.code).toBe(1);
    expect(before.stderr).toContain("hot ETH 5");

    const recorded = await cli("chain:hot-top-up", topUp);
    expect(recorded.code, recorded.stderr).toBe(0);
    expect(JSON.parse(recorded.stdout)).toMatchObject({
      applied: true,
      lines: [{ currency: "ETH", amount: "5" }],
    });
    const balanced = await cli("chain:custody");
    expect(balanced.code, balanced.stderr).toBe(0);

    const user = await h.registerByEmail();
    const { address } = await depositAddressFor(h.db, config, await userIdOf(h, user.token));
    await chain.transferUsdt(chain.accounts[1] as Address, address as Address, "250");
    await chain.mine(N);
    await catchUp();

    const first = await cli("chain:sweep");
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain(`planned sweep`);
    expect(first.stdout).toContain("sweep(s) wait for the chain");
    const listed = await cli("chain:sweeps");
    expect(JSON.parse(listed.stdout)).toMatchObject([{ address, currency: "USDT", status: "sent" }]);
    await chain.mine(N);
    const second = await cli("chain:sweep");
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain("no sweep is open");
    expect(await chain.usdtBalance(HOT)).toBe(250_000_000n);
    const after = await cli("chain:custody");
    expect(after.code, after.stderr).toBe(0);

    // The back office lists sweeps to operators who hold chain custody, and to no one else.
    const finance = await operatorToken(h, "finance");
    const rows = dataOf<{ status: string }[]>(
      await admin(h, "chainSweeps", { status: "confirmed" }, finance, "query"),
    );
    expect(rows.map((r) => r.status)).toEqual(["confirmed"]);
    const support = await operatorToken(h, "support");
    expectTrpcRefusal(await admin(h, "chainSweeps", {}, support, "query"), "FORBIDDEN");

    for (const text of outputs) {
      expect(text).not.toContain(XPRV);
      expect(text).not.toContain(TEST_PLATFORM_MNEMONIC);
      expect(text.toLowerCase()).not.toContain(HOT_KEY.slice(2).toLowerCase());
    }
  });

  it("refuses to sweep without the deposit key, or with one that is not CHAIN_XPUB's", async () => {
    const { CHAIN_SWEEP_KEY_FILE: _, ...withoutKey } = env;
    const none = await runAdminCliWithEnv(h, withoutKey, "chain:sweep");
    expect(none.code).toBe(1);
    expect(none.stderr).toContain("CHAIN_SWEEP_KEY_FILE");
    const other = testXprv(TEST_CHAIN_MNEMONIC);
    const wrong = await runAdminCliWithEnv(h, { ...withoutKey, CHAIN_SWEEP_KEY: other }, "chain:sweep");
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain("does not match CHAIN_XPUB");
    expect(`${wrong.stdout}${wrong.stderr}`).not.toContain(other);
  });
});
