import { availableParallelism } from "node:os";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  configureSecretHashing,
  hashSecret,
  newCode,
  newInviteCode,
  newToken,
  secretHashingLoad,
  sha256,
  useTestSecretCost,
  verifySecret,
} from "./secrets.ts";

// Hashes run one or a few at a time (the hash queue): allow for a busy machine.
describe("hashSecret and verifySecret", { timeout: 60_000 }, () => {
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

describe("the integration tests' cost", { timeout: 60_000 }, () => {
  afterEach(() => {
    useTestSecretCost(false);
  });

  it("is production's unless switched on, and a hash below the cost in use never verifies", async () => {
    useTestSecretCost();
    const cheap = await hashSecret("secret123");
    expect(cheap).toMatch(/^scrypt\$1024\$8\$1\$/);
    expect(await verifySecret("secret123", cheap)).toBe(true);
    useTestSecretCost(false);
    // Production's cost again: the cheap hash is refused, a new one carries the full cost.
    expect(await verifySecret("secret123", cheap)).toBe(false);
    const full = await hashSecret("secret123");
    expect(full).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(await verifySecret("secret123", full)).toBe(true);
    for (const weaker of [full.replace("$8$1$", "$4$1$"), full.replace("$32768$", "$16384$")]) {
      expect(await verifySecret("secret123", weaker)).toBe(false);
    }
  });

  it("cannot be switched on outside a vitest worker", () => {
    vi.stubEnv("VITEST_WORKER_ID", undefined);
    try {
      expect(() => useTestSecretCost()).toThrow(/test runner only/);
    } finally {
      vi.unstubAllEnvs();
    }
  });
});

describe("the hash queue", { timeout: 60_000 }, () => {
  afterEach(() => {
    configureSecretHashing({ concurrency: Math.max(1, availableParallelism() - 1), queue: 64 });
  });

  it("runs hash work one at a time here, signed-in work before anonymous, and refuses beyond the queue as busy", async () => {
    configureSecretHashing({ concurrency: 1, queue: 2 });
    const stored = await hashSecret("secret123");
    const done: string[] = [];
    const track = (name: string, work: Promise<boolean>) =>
      work.then(
        () => done.push(name),
        (error: { code?: string }) => done.push(`${name}:${error.code}`),
      );
    const running = track("first", verifySecret("secret123", stored, "anonymous"));
    const anonymous = track("anonymous", verifySecret("secret123", stored, "anonymous"));
    const signedIn = track("signed-in", verifySecret("secret123", stored, "signed-in"));
    expect(secretHashingLoad()).toEqual({ running: 1, signedIn: 1, anonymous: 1 });
    // Anonymous work may fill half the queue; any work, the whole of it.
    const anonymousRefused = track("anonymous-2", verifySecret("secret123", stored, "anonymous"));
    const signedInRefused = track("signed-in-2", verifySecret("secret123", stored, "signed-in"));
    await Promise.all([running, anonymous, signedIn, anonymousRefused, signedInRefused]);
    expect(done).toEqual([
      "anonymous-2:SERVER_BUSY",
      "signed-in-2:SERVER_BUSY",
      "first",
      "signed-in",
      "anonymous",
    ]);
    expect(secretHashingLoad()).toEqual({ running: 0, signedIn: 0, anonymous: 0 });
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
