import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { authenticator } from "otplib";
import { afterEach, describe, expect, it } from "vitest";
import {
  addTotpKeyToFile,
  isEncryptedTotpSecret,
  loadTotpKeyring,
  parseTotpKey,
  TotpKeyring,
} from "./totp-keys.ts";

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "totp-keys-"));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) {
    rmSync(dir, { recursive: true, force: true });
  }
});

describe("TOTP secrets at rest", () => {
  it("stores a value that is not the secret and gives the secret back", () => {
    const keyring = new TotpKeyring([randomBytes(32)]);
    const secret = authenticator.generateSecret(20);
    const stored = keyring.encrypt(secret, 7);
    expect(stored).not.toContain(secret);
    expect(stored.startsWith(`v1:${keyring.currentId}:`)).toBe(true);
    expect(isEncryptedTotpSecret(stored)).toBe(true);
    expect(isEncryptedTotpSecret(secret)).toBe(false);
    expect(keyring.decrypt(stored, 7)).toBe(secret);
    // A fresh IV each time: the same secret never looks the same twice.
    expect(keyring.encrypt(secret, 7)).not.toBe(stored);
  });

  it("refuses another key, another user's row and a changed byte", () => {
    const keyring = new TotpKeyring([randomBytes(32)]);
    const stored = keyring.encrypt("JBSWY3DPEHPK3PXP", 1);
    expect(() => new TotpKeyring([randomBytes(32)]).decrypt(stored, 1)).toThrow(/not configured/);
    expect(() => keyring.decrypt(stored, 2)).toThrow();
    const tampered = `${stored.slice(0, -2)}${stored.endsWith("A") ? "B" : "A"}${stored.slice(-1)}`;
    expect(() => keyring.decrypt(tampered, 1)).toThrow();
  });

  it("reads keys in base64 or hex, 32 bytes only", () => {
    const key = randomBytes(32);
    expect(parseTotpKey(key.toString("base64")).equals(key)).toBe(true);
    expect(parseTotpKey(key.toString("hex")).equals(key)).toBe(true);
    expect(() => parseTotpKey(randomBytes(16).toString("base64"))).toThrow(/32 bytes/);
  });

  it("decrypts with an older key while the first one encrypts", () => {
    const [oldKey, newKey] = [randomBytes(32), randomBytes(32)];
    const stored = new TotpKeyring([oldKey]).encrypt("JBSWY3DPEHPK3PXP", 3);
    const rotated = new TotpKeyring([newKey, oldKey]);
    expect(rotated.isCurrent(stored)).toBe(false);
    expect(rotated.decrypt(stored, 3)).toBe("JBSWY3DPEHPK3PXP");
    expect(rotated.isCurrent(rotated.encrypt("JBSWY3DPEHPK3PXP", 3))).toBe(true);
  });

  it("takes the key from the environment before the key file", () => {
    const dir = tempDir();
    const [current, previous] = [randomBytes(32), randomBytes(32)];
    const keyring = loadTotpKeyring({
      key: current.toString("hex"),
      previousKeys: previous.toString("base64"),
      dataDir: dir,
    });
    expect(keyring.currentId).toBe(new TotpKeyring([current]).currentId);
    expect(keyring.decrypt(new TotpKeyring([previous]).encrypt("S", 1), 1)).toBe("S");
    expect(() => statSync(join(dir, "totp-keys"))).toThrow();
  });

  it("generates a key file readable by its owner only on first start, and reuses it", () => {
    const dir = join(tempDir(), "data");
    const first = loadTotpKeyring({ dataDir: dir });
    expect(statSync(join(dir, "totp-keys")).mode & 0o777).toBe(0o600);
    const again = loadTotpKeyring({ dataDir: dir });
    expect(again.currentId).toBe(first.currentId);
    expect(again.decrypt(first.encrypt("S", 9), 9)).toBe("S");
  });

  it("a key added to the file encrypts from then on; a server holding the old ring reads the new rows", () => {
    const dir = tempDir();
    const running = loadTotpKeyring({ dataDir: dir });
    const before = running.encrypt("OLD", 1);
    const rotated = addTotpKeyToFile(dir);
    expect(rotated.currentId).not.toBe(running.currentId);
    expect(readFileSync(join(dir, "totp-keys"), "utf8").trim().split("\n")).toHaveLength(2);
    expect(statSync(join(dir, "totp-keys")).mode & 0o777).toBe(0o600);
    expect(rotated.decrypt(before, 1)).toBe("OLD");
    expect(running.decrypt(rotated.encrypt("NEW", 1), 1)).toBe("NEW");
  });
});
