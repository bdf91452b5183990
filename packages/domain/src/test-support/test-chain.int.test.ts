import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestChain, type TestChain } from "./test-chain.ts";

describe("the in-process test node", () => {
  let chain: TestChain;
  beforeAll(async () => {
    chain = await startTestChain();
  });
  afterAll(() => chain.close());

  it("deploys test USDT and moves it between accounts", async () => {
    const [, alice, bob] = chain.accounts as [string, `0x${string}`, `0x${string}`];
    await chain.mintUsdt(alice, "100.5");
    await chain.transferUsdt(alice, bob, "0.000001");
    expect(await chain.usdtBalance(alice)).toBe(100_499_999n);
    expect(await chain.usdtBalance(bob)).toBe(1n);
  });

  it("mines blocks on request and forgets them on revert", async () => {
    const start = await chain.head();
    const id = await chain.snapshot();
    expect(await chain.mine(3)).toBe(start + 3n);
    const replaced = await chain.client.getBlock({ blockNumber: start + 1n });
    await chain.revert(id);
    expect(await chain.head()).toBe(start);
    await chain.mine(1);
    const again = await chain.client.getBlock({ blockNumber: start + 1n });
    expect(again.hash).not.toBe(replaced.hash);
  });
});
