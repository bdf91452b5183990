import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inspect } from "node:util";
import { parseTransaction, recoverTransactionAddress } from "viem";
import { afterAll, describe, expect, it } from "vitest";
import { hotWalletSignerFromKey, loadHotWalletSigner } from "./hot-wallet.ts";
import { toBaseUnits } from "./withdrawal-broadcast.ts";

// A key made up for this test; its address is what viem derives from it.
const KEY = `0x${"4c".repeat(32)}`;
const dir = mkdtempSync(join(tmpdir(), "hot-wallet-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the hot-wallet signer", () => {
  it("signs with the key from the environment, and shows only its address", async () => {
    const signer = loadHotWalletSigner({ HOT_WALLET_PRIVATE_KEY: KEY });
    if (!signer) {
      throw new Error("no signer");
    }
    const raw = await signer.signTransaction({
      type: "eip1559",
      chainId: 1337,
      nonce: 3,
      to: "0x52908400098527886E0F7030069857D2E4169EE7",
      value: 5n,
      gas: 21_000n,
      maxFeePerGas: 2n,
      maxPriorityFeePerGas: 1n,
    });
    expect(parseTransaction(raw).nonce).toBe(3);
    expect(await recoverTransactionAddress({ serializedTransaction: raw as never })).toBe(signer.address);
    const bare = KEY.slice(2);
    for (const shown of [
      JSON.stringify(signer),
      inspect(signer, { depth: 5, showHidden: true }),
      String(signer),
      raw,
    ]) {
      expect(shown.toLowerCase()).not.toContain(bare);
    }
  });

  it("reads the key from a file (first line, with or without 0x) and signs as the same address", () => {
    const file = join(dir, "key");
    writeFileSync(file, `${KEY.slice(2)}\n`);
    const fromFile = loadHotWalletSigner({ HOT_WALLET_KEY_FILE: file });
    expect(fromFile?.address).toBe(hotWalletSignerFromKey(KEY).address);
  });

  it("is absent when neither variable is set, and refused when both are, or the key is not 32 bytes", () => {
    expect(loadHotWalletSigner({})).toBeNull();
    expect(() => loadHotWalletSigner({ HOT_WALLET_PRIVATE_KEY: KEY, HOT_WALLET_KEY_FILE: "/x" })).toThrow(
      /not both/,
    );
    const short = `0x${"ab".repeat(31)}`;
    let message = "";
    try {
      hotWalletSignerFromKey(short);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/not 32 bytes/);
    expect(message).not.toContain("ab".repeat(31));
    expect(() => loadHotWalletSigner({ HOT_WALLET_KEY_FILE: join(dir, "missing") })).toThrow(/ENOENT/);
  });
});

describe("toBaseUnits", () => {
  it("converts exactly, to the last decimal", () => {
    expect(toBaseUnits("950.000000000000000000", 6)).toBe(950_000_000n);
    expect(toBaseUnits("0.000001", 6)).toBe(1n);
    expect(toBaseUnits("1.234567890123456789", 18)).toBe(1_234_567_890_123_456_789n);
  });

  it("refuses an amount finer than the currency's decimals rather than round it", () => {
    expect(() => toBaseUnits("0.0000001", 6)).toThrow(/does not fit/);
  });
});
