import type { ChainConfig } from "@northstar/domain/chain";
import { chainClient, watchOnce } from "@northstar/domain/chain";
import { createFixedPriceProvider } from "@northstar/domain/markets";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  startTestChain,
  type TestChain,
  testXpub,
} from "../../../../packages/domain/src/test-support/index.ts";
import { expectTrpcRefusal } from "../test/fixtures.ts";
import { createHarness, type Harness } from "../test/harness.ts";
import {
  ADDR,
  balanceOf,
  dataOf,
  operatorToken,
  setDepositAddress,
  txHash,
  uploadProof,
  userIdOf,
} from "../test/money.ts";

/**
 * Deposits on a watched chain through the API: each user's own address on the deposit page, a reported
 * hash checked against the chain instead of by an operator, and the watcher crediting it.
 */
type Address = `0x${string}`;
const XPUB = testXpub();

let h: Harness;
let chain: TestChain;
let config: ChainConfig;
let funder: Address;
beforeAll(async () => {
  chain = await startTestChain();
  funder = chain.accounts[1] as Address;
  await chain.mintUsdt(funder, "1000");
  config = {
    network: "ERC20",
    chainId: chain.chainId,
    rpcUrl: chain.rpcUrl,
    xpub: XPUB,
    nativeCurrency: "ETH",
    tokens: [{ currency: "USDT", address: chain.usdt.toLowerCase() as Address, decimals: 6 }],
  };
  h = await createHarness({ chain: config });
  const op = await operatorToken(h, "finance");
  await setDepositAddress(h, op, "BTC", "BTC", ADDR.BTC);
  await setDepositAddress(h, op, "USDT", "ERC20", ADDR.ERC20);
});
afterAll(async () => {
  await h?.close();
  await chain?.close();
});

type Option = {
  currency: string;
  chain: string;
  address: string;
  minimum: string;
  confirmations: number | null;
};
const optionsOf = async (token: string) =>
  dataOf<{ addresses: Option[] }>(await h.trpc("deposit.options", undefined, token, "query")).addresses;

const pass = () =>
  watchOnce({
    db: h.db,
    client: chainClient(config),
    config,
    prices: createFixedPriceProvider(),
    startBlock: 0n,
  });

describe("deposits on the watched chain", () => {
  it("shows each user their own stable address with the confirmations; other chains keep the operators' address", async () => {
    const a = await h.registerByEmail();
    const b = await h.registerByEmail();
    const optionsA = await optionsOf(a.token);
    const usdt = optionsA.find((o) => o.currency === "USDT" && o.chain === "ERC20");
    const eth = optionsA.find((o) => o.currency === "ETH" && o.chain === "ERC20");
    expect(usdt).toMatchObject({ minimum: "1", confirmations: 12 });
    expect(usdt?.address).not.toBe(ADDR.ERC20);
    expect(eth?.address).toBe(usdt?.address);
    expect(optionsA.find((o) => o.currency === "BTC")).toMatchObject({
      address: ADDR.BTC,
      confirmations: null,
    });
    expect((await optionsOf(a.token)).find((o) => o.currency === "USDT")?.address).toBe(usdt?.address);
    expect((await optionsOf(b.token)).find((o) => o.currency === "USDT")?.address).not.toBe(usdt?.address);
  });

  it("checks a reported hash against the chain: refuses a wrong one, records the right one, the watcher credits it", async () => {
    const u = await h.registerByEmail();
    const userId = await userIdOf(h, u.token);
    const own = (await optionsOf(u.token)).find((o) => o.currency === "USDT")?.address as Address;
    const proof = await uploadProof(h, u.token);
    const report = (fields: Record<string, string>) =>
      h.trpc(
        "deposit.create",
        { channel: "crypto", currency: "USDT", chain: "ERC20", proof_upload_id: proof, ...fields },
        u.token,
      );

    // A hash the chain does not know.
    expectTrpcRefusal(await report({ amount: "5", tx_hash: txHash() }), "DEPOSIT_TX_NOT_FOUND", {
      params: { chain: "ERC20" },
    });
    // A real transfer, but to someone else's address.
    const elsewhere = await chain.transferUsdt(funder, chain.accounts[2] as Address, "5");
    expectTrpcRefusal(await report({ amount: "5", tx_hash: elsewhere }), "DEPOSIT_TX_MISMATCH", {
      params: { amount: "5", currency: "USDT", chain: "ERC20" },
    });
    // The user's transfer with another amount than the one sent.
    const mine = await chain.transferUsdt(funder, own, "7.5");
    expectTrpcRefusal(await report({ amount: "7", tx_hash: mine }), "DEPOSIT_TX_MISMATCH", {
      params: { amount: "7", currency: "USDT", chain: "ERC20" },
    });
    expect(
      dataOf<unknown[]>(await h.trpc("deposit.getMany", { page: 1, page_size: 20 }, u.token, "query")),
    ).toHaveLength(0);

    // The right report: a pending deposit, no operator needed.
    const created = dataOf<{ id: number; status: string; confirmationsRequired: number }>(
      await report({ amount: "7.5", tx_hash: mine }),
    );
    expect(created).toMatchObject({ status: "pending", confirmationsRequired: 12 });
    // Reported twice: the same deposit.
    expect(dataOf<{ id: number }>(await report({ amount: "7.5", tx_hash: mine })).id).toBe(created.id);

    await chain.mine(11);
    await pass();
    const [deposit] = dataOf<{ id: number; status: string }[]>(
      await h.trpc("deposit.getMany", { page: 1, page_size: 20 }, u.token, "query"),
    );
    expect(deposit).toMatchObject({ id: created.id, status: "success" });
    expect((await balanceOf(h, userId)).available).toBe("7.5");
  });
});
