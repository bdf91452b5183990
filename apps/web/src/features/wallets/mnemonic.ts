/** Spaces of any kind and letter case as people type them: BIP-39 phrases are lower-case words split by single spaces. */
export function normalizeMnemonic(phrase: string): string {
  return phrase.normalize("NFKD").trim().toLowerCase().split(/\s+/).join(" ");
}

/**
 * Whether a phrase is a valid BIP-39 mnemonic (English wordlist, word count and checksum). The
 * library and its wordlist load on the first check, so no page pays for them up front.
 */
export async function isValidMnemonic(phrase: string): Promise<boolean> {
  const normalized = normalizeMnemonic(phrase);
  if (!normalized) {
    return false;
  }
  const [{ validateMnemonic }, { wordlist }] = await Promise.all([
    import("@scure/bip39"),
    import("@scure/bip39/wordlists/english.js"),
  ]);
  return validateMnemonic(normalized, wordlist);
}
