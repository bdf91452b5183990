import { secp256k1 } from "@noble/curves/secp256k1";
import { HDKey } from "@scure/bip32";
import { type Address, bytesToHex, getAddress } from "viem";
import { publicKeyToAddress } from "viem/accounts";

/**
 * Deposit addresses are derived from an account-level extended public key (BIP-44 m/44'/60'/0'):
 * user address n is its external chain's child 0/n, the path wallets use (m/44'/60'/0'/0/n), so the
 * operator's offline wallet holding the matching private key can spend from every address. The
 * platform never sees a deposit private key.
 */
export const MAX_DERIVATION_INDEX = 2 ** 31 - 1;

export function depositAddressAt(xpub: string, index: number): Address {
  if (!Number.isInteger(index) || index < 0 || index > MAX_DERIVATION_INDEX) {
    throw new Error(`derivation index out of range: ${index}`);
  }
  const node = HDKey.fromExtendedKey(xpub).deriveChild(0).deriveChild(index);
  if (!node.publicKey) {
    throw new Error("the extended key gives no public key");
  }
  const uncompressed = secp256k1.ProjectivePoint.fromHex(node.publicKey).toRawBytes(false);
  return getAddress(publicKeyToAddress(bytesToHex(uncompressed)));
}

/** Throws unless `xpub` is an extended public key (never a private one). */
export function assertExtendedPublicKey(xpub: string): void {
  const key = HDKey.fromExtendedKey(xpub);
  if (key.privateKey) {
    throw new Error("CHAIN_XPUB holds a private key: give the extended public key only");
  }
}
