import { describe, expect, it } from "vitest";
import { hashSecret, newCode, newInviteCode, newToken, sha256, verifySecret } from "./secrets.ts";

describe("hashSecret and verifySecret", () => {
  it("verifies the secret it hashed, and nothing else", async () => {
    const stored = await hashSecret("secret123");
    expect(stored).toMatch(/^scrypt\$32768\$8\$1\$[\w-]+\$[\w-]+$/);
    expect(stored).not.toContain("secret123");
    expect(await verifySecret("secret123", stored)).toBe(true);
    expect(await verifySecret("secret124", stored)).toBe(false);
    expect(await verifySecret("Secret123", stored)).toBe(false);
    expect(await verifySecret("", stored)).toBe(false);
  });

  it("salts: the same secret hashes differently each time, and both verify", async () => {
    const [a, b] = await Promise.all([hashSecret("135790"), hashSecret("135790")]);
    expect(a).not.toBe(b);
    expect(await verifySecret("135790", a)).toBe(true);
    expect(await verifySecret("135790", b)).toBe(true);
  });

  it("treats compatibility forms of a character as the same secret (NFKC)", async () => {
    const stored = await hashSecret("ｐａｓｓ１２３");
    expect(await verifySecret("pass123", stored)).toBe(true);
  });

  it("refuses a malformed stored hash instead of throwing", async () => {
    for (const stored of ["", "plain", "bcrypt$1$2$3$4$5", "scrypt$32768$8$1$salt"]) {
      expect(await verifySecret("secret123", stored)).toBe(false);
    }
  });
});

describe("tokens and codes", () => {
  it("makes unique, URL-safe session tokens of 256 bits", () => {
    const tokens = Array.from({ length: 1000 }, newToken);
    expect(new Set(tokens).size).toBe(1000);
    for (const token of tokens.slice(0, 20)) {
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    }
  });

  it("stores tokens by SHA-256", () => {
    expect(sha256("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });

  it("makes 6-digit verification codes, leading zeros kept, spread over the range", () => {
    const codes = Array.from({ length: 5000 }, newCode);
    for (const code of codes) {
      expect(code).toMatch(/^\d{6}$/);
    }
    expect(new Set(codes).size).toBeGreaterThan(4900);
    expect(codes.some((c) => c.startsWith("0"))).toBe(true);
  });

  it("makes invitation codes without ambiguous characters", () => {
    for (const code of Array.from({ length: 200 }, newInviteCode)) {
      expect(code).toMatch(/^[A-HJ-NP-Z2-9]{6}$/);
    }
  });
});
