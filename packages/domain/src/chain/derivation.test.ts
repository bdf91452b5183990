import { HDKey } from "@scure/bip32";
import { mnemonicToSeedSync } from "@scure/bip39";
import { mnemonicToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { TEST_CHAIN_MNEMONIC } from "../test-support/test-chain.ts";
import { assertExtendedPublicKey, depositAddressAt } from "./derivation.ts";

const account = HDKey.fromMasterSeed(mnemonicToSeedSync(TEST_CHAIN_MNEMONIC)).derive("m/44'/60'/0'");
const xpub = account.publicExtendedKey;

describe("deposit addresses from an xpub", () => {
  it("are the addresses a wallet with the private key derives (m/44'/60'/0'/0/n)", () => {
    for (const index of [0, 1, 7, 1000]) {
      expect(depositAddressAt(xpub, index)).toBe(
        mnemonicToAccount(TEST_CHAIN_MNEMONIC, { addressIndex: index }).address,
      );
    }
  });

  it("differ per index and refuse an index out of range", () => {
    expect(depositAddressAt(xpub, 1)).not.toBe(depositAddressAt(xpub, 2));
    expect(() => depositAddressAt(xpub, -1)).toThrow();
    expect(() => depositAddressAt(xpub, 2 ** 31)).toThrow();
  });

  it("refuse an extended private key as configuration", () => {
    expect(() => assertExtendedPublicKey(xpub)).not.toThrow();
    expect(() => assertExtendedPublicKey(account.privateExtendedKey)).toThrow(/private/);
  });
});
