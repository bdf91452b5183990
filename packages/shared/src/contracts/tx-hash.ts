/**
 * Transaction hashes as users paste them: with or without `0x`, in either case, with spaces, line
 * breaks or invisible characters (zero-width spaces, BOM, NBSP) picked up on the way. One on-chain
 * transaction must have exactly one stored form, or it could be claimed as a deposit twice.
 */

/** Whitespace and format characters (Unicode category Cf: zero-width, BOM, bidi marks, soft hyphen). */
const INVISIBLE = /[\s\p{Cf}]/gu;

const HEX64 = /^(?:0x)?([0-9a-f]{64})$/i;
const BASE58 = /^[1-9A-HJ-NP-Za-km-z]+$/;

interface HashRule {
  /** The stored form of a valid hash, or null when `clean` is not one of this chain. */
  normalize(clean: string): string | null;
}

/** EVM chains name a transaction by 32 bytes of hex, written with 0x. */
const evm: HashRule = {
  normalize: (clean) => {
    const m = HEX64.exec(clean);
    return m ? `0x${(m[1] as string).toLowerCase()}` : null;
  },
};

/** TRON, Bitcoin-family and XRP ids are 32 bytes of bare hex; a pasted 0x is dropped. */
const bareHex: HashRule = {
  normalize: (clean) => {
    const m = HEX64.exec(clean);
    return m ? (m[1] as string).toLowerCase() : null;
  },
};

/** Solana signatures are 64 bytes in base58, which is case-sensitive: kept as written. */
const solana: HashRule = {
  normalize: (clean) => (clean.length >= 64 && clean.length <= 90 && BASE58.test(clean) ? clean : null),
};

/**
 * Chains without a rule of their own (an operator may open any chain): hex is compared in lower
 * case, anything else is kept as written within plain bounds.
 */
const generic: HashRule = {
  normalize: (clean) => {
    if (!/^[0-9A-Za-z]{16,128}$/.test(clean)) {
      return null;
    }
    return /^(0x)?[0-9a-f]+$/i.test(clean) ? clean.toLowerCase() : clean;
  },
};

const RULES: Record<string, HashRule> = {
  ERC20: evm,
  BEP20: evm,
  ARBITRUM: evm,
  OPTIMISM: evm,
  POLYGON: evm,
  MATIC: evm,
  AVAXC: evm,
  BASE: evm,
  TRC20: bareHex,
  BTC: bareHex,
  LTC: bareHex,
  DOGE: bareHex,
  BCH: bareHex,
  XRP: bareHex,
  SOL: solana,
};

/**
 * The one stored form of a transaction hash on `chain` (upper-case chain code), or null when it is
 * not a valid hash of that chain.
 */
export function normalizeTxHash(chain: string, raw: string): string | null {
  const clean = raw.replace(INVISIBLE, "");
  return (RULES[chain.toUpperCase()] ?? generic).normalize(clean);
}
