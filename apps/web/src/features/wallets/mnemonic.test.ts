import { describe, expect, it } from "vitest";
import { isValidMnemonic, normalizeMnemonic } from "./mnemonic.ts";

// BIP-39's published test vectors (English wordlist).
const VALID_12 =
  "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about";
const LEGAL_12 = "legal winner thank year wave sausage worth useful legal winner thank yellow";
const VALID_24 =
  "legal winner thank year wave sausage worth useful legal winner thank year wave sausage worth useful legal winner thank year wave sausage worth title";

describe("mnemonic verification", () => {
  it("accepts valid phrases, as typed with extra spaces and capitals", async () => {
    expect(await isValidMnemonic(VALID_12)).toBe(true);
    expect(await isValidMnemonic(VALID_24)).toBe(true);
    expect(await isValidMnemonic(LEGAL_12)).toBe(true);
    expect(await isValidMnemonic(`  ${VALID_12.toUpperCase().replaceAll(" ", "   \n")} `)).toBe(true);
    expect(normalizeMnemonic(" Abandon\tABOUT ")).toBe("abandon about");
  });

  it("refuses a wrong checksum, a word outside the list, a wrong length and nothing", async () => {
    expect(await isValidMnemonic(VALID_12.replace(/about$/, "abandon"))).toBe(false);
    expect(await isValidMnemonic(VALID_12.replace(/about$/, "bitcoin"))).toBe(false);
    expect(await isValidMnemonic(VALID_12.split(" ").slice(0, 11).join(" "))).toBe(false);
    expect(await isValidMnemonic(LEGAL_12.replace(/yellow$/, "year"))).toBe(false);
    // 16 words is no BIP-39 length, even when every word is on the list.
    expect(await isValidMnemonic(VALID_24.split(" ").slice(0, 16).join(" "))).toBe(false);
    expect(await isValidMnemonic("   ")).toBe(false);
  });
});
