import { readFileSync } from "node:fs";
import { HDKey } from "@scure/bip32";
import { type Address, bytesToHex, type Hex, type TransactionSerializableEIP1559 } from "viem";
import { english, mnemonicToAccount, privateKeyToAccount } from "viem/accounts";
import { depositAddressAt } from "./derivation.ts";

/**
 * The deposit addresses' signer for one sweep run. The platform holds no deposit private key: the
 * operator running the sweep command gives the account-level extended private key (BIP-44
 * `m/44'/60'/0'`, the one CHAIN_XPUB is the public half of) or the wallet's recovery phrase, in
 * `CHAIN_SWEEP_KEY` or a file named by `CHAIN_SWEEP_KEY_FILE`, read by that command only. The key
 * lives in this closure: nothing returned or printed carries it, and it is checked against
 * CHAIN_XPUB before anything is signed.
 */
export interface SweepKey {
  /** The signer of deposit address `index` (`…/0/index`). */
  signerAt(index: number): {
    address: Address;
    signTransaction(tx: TransactionSerializableEIP1559): Promise<Hex>;
  };
}

function fromExtendedKey(text: string, xpub: string): SweepKey {
  let root: HDKey;
  try {
    root = HDKey.fromExtendedKey(text);
  } catch {
    throw new Error("the sweep key is neither an extended private key nor a recovery phrase");
  }
  if (!root.privateKey) {
    throw new Error("the sweep key is an extended public key: give the extended private key");
  }
  if (root.publicExtendedKey !== xpub) {
    throw new Error("the sweep key does not match CHAIN_XPUB");
  }
  const external = root.deriveChild(0);
  return {
    signerAt(index) {
      const child = external.deriveChild(index);
      if (!child.privateKey) {
        throw new Error(`no private key at index ${index}`);
      }
      const account = privateKeyToAccount(bytesToHex(child.privateKey));
      return { address: account.address, signTransaction: (tx) => account.signTransaction(tx) };
    },
  };
}

function fromMnemonic(words: string[], xpub: string): SweepKey {
  const known = new Set(english);
  if (![12, 15, 18, 21, 24].includes(words.length) || !words.every((w) => known.has(w))) {
    throw new Error("the sweep key is neither an extended private key nor a recovery phrase");
  }
  const phrase = words.join(" ");
  // The phrase's account-level key must be CHAIN_XPUB's: its first addresses must be the platform's.
  for (const index of [0, 1]) {
    if (mnemonicToAccount(phrase, { addressIndex: index }).address !== depositAddressAt(xpub, index)) {
      throw new Error("the sweep key does not match CHAIN_XPUB");
    }
  }
  return {
    signerAt(index) {
      const account = mnemonicToAccount(phrase, { addressIndex: index });
      return { address: account.address, signTransaction: (tx) => account.signTransaction(tx) };
    },
  };
}

/** A sweep key from its text: an extended private key (xprv…) or a recovery phrase. */
export function sweepKeyFromText(text: string, xpub: string): SweepKey {
  const trimmed = text.trim();
  const words = trimmed.split(/\s+/);
  const key = words.length > 1 ? fromMnemonic(words, xpub) : fromExtendedKey(trimmed, xpub);
  Object.defineProperty(key, "toJSON", { value: () => ({ xpub }) });
  return key;
}

/**
 * The sweep key the command's environment names (`CHAIN_SWEEP_KEY`, or the whole text of the file
 * `CHAIN_SWEEP_KEY_FILE`), checked against CHAIN_XPUB. Neither set, or both, is refused; no message
 * repeats the key.
 */
export function loadSweepKey(
  env: { CHAIN_SWEEP_KEY?: string | undefined; CHAIN_SWEEP_KEY_FILE?: string | undefined },
  xpub: string | null,
): SweepKey {
  if (!xpub) {
    throw new Error("CHAIN_XPUB is not set: there are no deposit addresses to sweep");
  }
  if (env.CHAIN_SWEEP_KEY && env.CHAIN_SWEEP_KEY_FILE) {
    throw new Error("set CHAIN_SWEEP_KEY or CHAIN_SWEEP_KEY_FILE, not both");
  }
  if (env.CHAIN_SWEEP_KEY) {
    return sweepKeyFromText(env.CHAIN_SWEEP_KEY, xpub);
  }
  if (env.CHAIN_SWEEP_KEY_FILE) {
    let text: string;
    try {
      text = readFileSync(env.CHAIN_SWEEP_KEY_FILE, "utf8");
    } catch (error) {
      throw new Error(
        `CHAIN_SWEEP_KEY_FILE cannot be read: ${(error as NodeJS.ErrnoException).code ?? "unreadable"}`,
      );
    }
    return sweepKeyFromText(text, xpub);
  }
  throw new Error("a sweep needs the deposit key: set CHAIN_SWEEP_KEY_FILE (or CHAIN_SWEEP_KEY)");
}
