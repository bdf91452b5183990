import { readFileSync } from "node:fs";
import type { Address, Hex, TransactionSerializableEIP1559 } from "viem";
import { privateKeyToAccount } from "viem/accounts";

/**
 * The hot wallet's signer. The private key comes from the environment (`HOT_WALLET_PRIVATE_KEY`) or
 * a file (`HOT_WALLET_KEY_FILE`, the key as hex on its first line), never from the database; it lives
 * only inside the account's closure: the signer exposes its address and a signing function, and
 * printing it shows neither the key nor anything derived from it but the address.
 */
export interface HotWalletSigner {
  readonly address: Address;
  signTransaction(tx: TransactionSerializableEIP1559): Promise<Hex>;
}

const KEY = /^(0x)?[0-9a-fA-F]{64}$/;

export function hotWalletSignerFromKey(key: string): HotWalletSigner {
  const trimmed = key.trim();
  if (!KEY.test(trimmed)) {
    // The message names the variable, never the value.
    throw new Error("the hot-wallet key is not 32 bytes of hex");
  }
  const account = privateKeyToAccount((trimmed.startsWith("0x") ? trimmed : `0x${trimmed}`) as Hex);
  const signer: HotWalletSigner = {
    address: account.address,
    signTransaction: (tx) => account.signTransaction(tx),
  };
  Object.defineProperty(signer, "toJSON", { value: () => ({ address: account.address }) });
  return signer;
}

/**
 * The signer the configuration names, or null when it names none (the platform then pays no
 * withdrawal from a hot wallet). Both variables set is refused: which key signs must not be a guess.
 */
export function loadHotWalletSigner(env: {
  HOT_WALLET_PRIVATE_KEY?: string | undefined;
  HOT_WALLET_KEY_FILE?: string | undefined;
}): HotWalletSigner | null {
  if (env.HOT_WALLET_PRIVATE_KEY && env.HOT_WALLET_KEY_FILE) {
    throw new Error("set HOT_WALLET_PRIVATE_KEY or HOT_WALLET_KEY_FILE, not both");
  }
  if (env.HOT_WALLET_PRIVATE_KEY) {
    return hotWalletSignerFromKey(env.HOT_WALLET_PRIVATE_KEY);
  }
  if (env.HOT_WALLET_KEY_FILE) {
    let text: string;
    try {
      text = readFileSync(env.HOT_WALLET_KEY_FILE, "utf8");
    } catch (error) {
      throw new Error(
        `HOT_WALLET_KEY_FILE cannot be read: ${(error as NodeJS.ErrnoException).code ?? "unreadable"}`,
      );
    }
    return hotWalletSignerFromKey(text.split("\n")[0] ?? "");
  }
  return null;
}
