import { randomBytes } from "node:crypto";
import { ZCreateApiKeyRequestSchema } from "@northstar/shared/contracts/apikeys";
import { apiKeyMachine, findTransition } from "@northstar/shared/state-machines";
import { describe, expect, it } from "vitest";
import { TotpKeyring } from "../identity/index.ts";
import { decryptApiSecret, encryptApiSecret, useApiKeyKeyring } from "./keys.ts";
import { normaliseIp } from "./signing.ts";

describe("API key secrets at rest", () => {
  it("open only for the user they were stored for, and only with the key that sealed them", () => {
    useApiKeyKeyring(new TotpKeyring([randomBytes(32)]));
    const sealed = encryptApiSecret("the-secret", 7);
    expect(sealed).not.toContain("the-secret");
    expect(decryptApiSecret({ secretEncrypted: sealed, userId: 7 })).toBe("the-secret");
    // A row copied to another user does not open.
    expect(() => decryptApiSecret({ secretEncrypted: sealed, userId: 8 })).toThrow();
    // A dump read with another server key does not open either.
    useApiKeyKeyring(new TotpKeyring([randomBytes(32)]));
    expect(() => decryptApiSecret({ secretEncrypted: sealed, userId: 7 })).toThrow();
  });
});

describe("API key rules", () => {
  it("lets only an operator lift a block, and the owner delete in any state", () => {
    expect(findTransition(apiKeyMachine, "blocked", "active", "user")).toBeFalsy();
    expect(findTransition(apiKeyMachine, "blocked", "active", "operator")).toBeTruthy();
    expect(findTransition(apiKeyMachine, "active", "blocked", "user")).toBeFalsy();
    for (const from of ["active", "disabled", "blocked"] as const) {
      expect(findTransition(apiKeyMachine, from, "deleted", "user")).toBeTruthy();
    }
    expect(findTransition(apiKeyMachine, "deleted", "active", "user")).toBeFalsy();
  });

  it("reads the address list from commas, spaces or lines, and refuses what is not an address", () => {
    const parse = (ip_allow_list: string) =>
      ZCreateApiKeyRequestSchema.safeParse({ label: "bot", trade_password: "123456", ip_allow_list });
    expect(parse("203.0.113.7, 198.51.100.1\n2001:db8::1").data?.ip_allow_list).toEqual([
      "203.0.113.7",
      "198.51.100.1",
      "2001:db8::1",
    ]);
    expect(parse("").data?.ip_allow_list).toEqual([]);
    expect(parse("256.1.1.1").error?.issues[0]?.message).toBe("API_KEY_IP_LIST_INVALID");
    expect(parse("example.com").error?.issues[0]?.message).toBe("API_KEY_IP_LIST_INVALID");
    expect(normaliseIp("::ffff:203.0.113.7")).toBe("203.0.113.7");
  });
});
