import { and, count, eq } from "drizzle-orm";
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import { parseSiweMessage } from "viem/siwe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { setPolicy } from "../policy/index.ts";
import { seedDatabase } from "../setup/index.ts";
import { createTrader } from "../spot/testing.ts";
import { createTestDatabase } from "../test-support/index.ts";
import {
  authenticate,
  issueWalletNonce,
  linkWallet,
  listWallets,
  sessions,
  unlinkWallet,
  users,
  walletLinks,
  walletLogin,
} from "./index.ts";

/** Sign-In with Ethereum against a real database, with keys made here; every instant is an argument. */
let db: Db;
let close: () => Promise<void>;
const SITE = { publicUrl: "https://app.northstar.test" };
const T0 = new Date("2026-05-01T10:00:00Z");
const minutes = (m: number) => new Date(T0.getTime() + m * 60_000);
let ipSeq = 0;
/** Each test speaks from its own IP address, so the per-address limits of one do not reach another. */
const nextIp = () => `10.0.0.${++ipSeq}`;

beforeAll(async () => {
  const database = await createTestDatabase();
  const conn = createDb(database.url, { max: 30 });
  conn.pool.on("error", () => {});
  await seedDatabase(conn.db);
  db = conn.db;
  close = async () => {
    await conn.close();
    await database.drop();
  };
});
afterAll(async () => {
  await close?.();
});

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) {
      return error.code;
    }
    throw error;
  }
  throw new Error("expected a refusal");
}

const wallet = () => privateKeyToAccount(generatePrivateKey());

async function signedLogin(account: PrivateKeyAccount, ip: string, now = T0, chainId = 1) {
  const { message } = await issueWalletNonce(db, {
    input: { address: account.address, chainId },
    purpose: "login",
    ip,
    site: SITE,
    now,
  });
  return { message, signature: await account.signMessage({ message }) };
}

const login = (input: { message: string; signature: string }, ip: string, now = T0) =>
  walletLogin(db, { input, ip, language: "en", site: SITE, now });

async function linksOf(address: string) {
  const [row] = await db.select({ n: count() }).from(walletLinks).where(eq(walletLinks.address, address));
  return row?.n ?? 0;
}

describe("wallet sign-in", () => {
  it("a valid signature creates an account on first sign-in, and signs in to it afterwards", async () => {
    const ip = nextIp();
    const account = wallet();
    const first = await login(await signedLogin(account, ip), ip);
    expect(first.created).toBe(true);
    const auth = await authenticate(db, first.token);
    expect(auth.user.id).toBe(first.userId);
    expect(auth.user.kind).toBe("real");

    const again = await login(await signedLogin(account, ip, minutes(1)), ip, minutes(1));
    expect(again).toMatchObject({ created: false, userId: first.userId });
    expect(await listWallets(db, first.userId)).toEqual([
      expect.objectContaining({ address: account.address, chainId: 1 }),
    ]);
  });

  it("the message names this site, the chain and a nonce issued for that address", async () => {
    const account = wallet();
    const { message } = await issueWalletNonce(db, {
      input: { address: account.address.toLowerCase(), chainId: 1 },
      purpose: "login",
      ip: nextIp(),
      site: SITE,
      now: T0,
    });
    const parsed = parseSiweMessage(message);
    expect(parsed).toMatchObject({
      domain: "app.northstar.test",
      uri: "https://app.northstar.test",
      chainId: 1,
    });
    expect(parsed.address).toBe(account.address);
    expect(parsed.expirationTime?.toISOString()).toBe(minutes(5).toISOString());
  });

  it("a replayed nonce is refused, also when sent 20 times at once", async () => {
    const ip = nextIp();
    const account = wallet();
    const signed = await signedLogin(account, ip);
    // Each replay from its own address: the per-address lock must not be what stops them.
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => login(signed, nextIp())));
    const passed = results.filter((r) => r.status === "fulfilled");
    expect(passed).toHaveLength(1);
    for (const r of results) {
      if (r.status === "rejected") {
        expect((r.reason as AppError).code).toBe("WALLET_NONCE_INVALID");
      }
    }
    expect(await refusal(login(signed, ip))).toBe("WALLET_NONCE_INVALID");
    const [row] = await db
      .select({ n: count() })
      .from(users)
      .innerJoin(walletLinks, eq(walletLinks.userId, users.id))
      .where(eq(walletLinks.address, account.address));
    expect(row?.n).toBe(1);
  });

  it("a message for another domain or URI is refused, and the nonce stays usable", async () => {
    const ip = nextIp();
    const account = wallet();
    const signed = await signedLogin(account, ip);
    const forged = signed.message.replace(/^https:\/\/app\.northstar\.test /, "https://evil.example ");
    expect(forged).not.toBe(signed.message);
    expect(
      await refusal(
        login({ message: forged, signature: await account.signMessage({ message: forged }) }, ip),
      ),
    ).toBe("WALLET_DOMAIN_MISMATCH");
    const otherUri = signed.message.replace("URI: https://app.northstar.test", "URI: https://evil.example");
    expect(
      await refusal(
        login({ message: otherUri, signature: await account.signMessage({ message: otherUri }) }, ip),
      ),
    ).toBe("WALLET_DOMAIN_MISMATCH");
    const accepted = await login(signed, ip);
    expect(accepted.created).toBe(true);
  });

  it("an expired nonce is refused", async () => {
    const ip = nextIp();
    const account = wallet();
    const signed = await signedLogin(account, ip);
    expect(await refusal(login(signed, ip, minutes(5)))).toBe("WALLET_NONCE_INVALID");
    expect(await refusal(login(signed, ip, minutes(60)))).toBe("WALLET_NONCE_INVALID");
    expect(await linksOf(account.address)).toBe(0);
    // Within its lifetime the same nonce is still good.
    expect((await login(signed, ip, minutes(4))).created).toBe(true);
  });

  it("a chain outside the policy is refused, at the nonce and in the signed message", async () => {
    const ip = nextIp();
    const account = wallet();
    expect(
      await refusal(
        issueWalletNonce(db, {
          input: { address: account.address, chainId: 5 },
          purpose: "login",
          ip,
          site: SITE,
          now: T0,
        }),
      ),
    ).toBe("WALLET_CHAIN_UNSUPPORTED");
    const signed = await signedLogin(account, ip);
    const otherChain = signed.message.replace("Chain ID: 1\n", "Chain ID: 5\n");
    expect(otherChain).not.toBe(signed.message);
    expect(
      await refusal(
        login({ message: otherChain, signature: await account.signMessage({ message: otherChain }) }, ip),
      ),
    ).toBe("WALLET_CHAIN_UNSUPPORTED");
    // Once the operator allows chain 5, a message for it still needs a nonce issued for chain 5.
    await setPolicy(db, "identity.wallet.chainIds", [1, 5], "test");
    try {
      expect(
        await refusal(
          login({ message: otherChain, signature: await account.signMessage({ message: otherChain }) }, ip),
        ),
      ).toBe("WALLET_NONCE_INVALID");
      expect((await login(await signedLogin(account, ip, T0, 5), ip)).created).toBe(true);
    } finally {
      await setPolicy(db, "identity.wallet.chainIds", [1], "test");
    }
  });

  it("a signature by another key is refused", async () => {
    const ip = nextIp();
    const account = wallet();
    const signed = await signedLogin(account, ip);
    const stranger = wallet();
    expect(
      await refusal(
        login(
          { message: signed.message, signature: await stranger.signMessage({ message: signed.message }) },
          ip,
        ),
      ),
    ).toBe("WALLET_SIGNATURE_INVALID");
    expect(await linksOf(account.address)).toBe(0);
  });

  it("failed sign-ins from one address lock it; nonce requests are limited per address", async () => {
    const ip = nextIp();
    const account = wallet();
    const signed = await signedLogin(account, ip);
    const bad = {
      message: signed.message,
      signature: await wallet().signMessage({ message: signed.message }),
    };
    const codes = [];
    for (let i = 0; i < 6; i++) {
      codes.push(await refusal(login(bad, ip)));
    }
    expect(codes.slice(0, 5)).toEqual(Array(5).fill("WALLET_SIGNATURE_INVALID"));
    expect(codes[5]).toBe("WALLET_LOCKED");
    // Locked: even the right signature is refused, and nothing was created.
    expect(await refusal(login(signed, ip))).toBe("WALLET_LOCKED");
    expect(await linksOf(account.address)).toBe(0);

    const busy = nextIp();
    const asked = await Promise.allSettled(
      Array.from({ length: 40 }, () =>
        issueWalletNonce(db, {
          input: { address: account.address, chainId: 1 },
          purpose: "login",
          ip: busy,
          site: SITE,
          now: T0,
        }),
      ),
    );
    expect(asked.filter((r) => r.status === "fulfilled")).toHaveLength(30);
    // An hour later the address may ask again.
    await expect(
      issueWalletNonce(db, {
        input: { address: account.address, chainId: 1 },
        purpose: "login",
        ip: busy,
        site: SITE,
        now: minutes(61),
      }),
    ).resolves.toHaveProperty("message");
  });

  it("20 first sign-ins of one wallet at once create one account", async () => {
    const account = wallet();
    const ips = Array.from({ length: 20 }, nextIp);
    const signed = await Promise.all(ips.map((ip) => signedLogin(account, ip)));
    const results = await Promise.all(signed.map((s, i) => login(s, ips[i] as string)));
    expect(new Set(results.map((r) => r.userId)).size).toBe(1);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(await linksOf(account.address)).toBe(1);
  });
});

describe("linking a wallet to an existing account", () => {
  async function signedLink(userId: number, account: PrivateKeyAccount, ip: string) {
    const { message } = await issueWalletNonce(db, {
      input: { address: account.address, chainId: 1 },
      purpose: "link",
      userId,
      ip,
      site: SITE,
      now: T0,
    });
    return { message, signature: await account.signMessage({ message }) };
  }

  it("links a wallet the user signed for; the wallet then signs in to that account", async () => {
    const ip = nextIp();
    const user = await createTrader(db, {});
    const account = wallet();
    const linked = await linkWallet(db, user, {
      input: await signedLink(user.id, account, ip),
      ip,
      site: SITE,
      now: T0,
    });
    expect(linked).toMatchObject({ address: account.address, chainId: 1 });
    const signedIn = await login(await signedLogin(account, ip), ip);
    expect(signedIn).toMatchObject({ created: false, userId: user.id });
  });

  it("a login nonce cannot link, and a link nonce issued to one user cannot serve another", async () => {
    const ip = nextIp();
    const [alice, bob] = [await createTrader(db, {}), await createTrader(db, {})];
    const account = wallet();
    expect(
      await refusal(
        linkWallet(db, alice, { input: await signedLogin(account, ip), ip, site: SITE, now: T0 }),
      ),
    ).toBe("WALLET_NONCE_INVALID");
    const forAlice = await signedLink(alice.id, account, ip);
    expect(await refusal(linkWallet(db, bob, { input: forAlice, ip, site: SITE, now: T0 }))).toBe(
      "WALLET_NONCE_INVALID",
    );
    expect(await linksOf(account.address)).toBe(0);
  });

  it("a wallet linked elsewhere is refused; 20 links of one wallet at once make one link", async () => {
    const [alice, bob] = [await createTrader(db, {}), await createTrader(db, {})];
    const account = wallet();
    const ips = Array.from({ length: 20 }, nextIp);
    const inputs = await Promise.all(
      ips.map(async (ip, i) => ({
        user: i % 2 ? bob : alice,
        ip,
        input: await signedLink((i % 2 ? bob : alice).id, account, ip),
      })),
    );
    const results = await Promise.allSettled(
      inputs.map(({ user, ip, input }) => linkWallet(db, user, { input, ip, site: SITE, now: T0 })),
    );
    expect(await linksOf(account.address)).toBe(1);
    const [link] = await db.select().from(walletLinks).where(eq(walletLinks.address, account.address));
    const owner = link?.userId;
    results.forEach((r, i) => {
      const user = inputs[i]?.user;
      if (user?.id === owner) {
        expect(r.status).toBe("fulfilled");
      } else {
        expect(r.status).toBe("rejected");
        expect(((r as PromiseRejectedResult).reason as AppError).code).toBe("WALLET_ALREADY_LINKED");
      }
    });
    // A wallet that signed up on its own is linked too: another account cannot take it.
    const own = wallet();
    const ip = nextIp();
    await login(await signedLogin(own, ip), ip);
    expect(
      await refusal(
        linkWallet(db, alice, { input: await signedLink(alice.id, own, ip), ip, site: SITE, now: T0 }),
      ),
    ).toBe("WALLET_ALREADY_LINKED");
  });

  it("removes only the user's own wallets, and never an account's only way in", async () => {
    const ip = nextIp();
    const [alice, bob] = [await createTrader(db, {}), await createTrader(db, {})];
    const account = wallet();
    const linked = await linkWallet(db, alice, {
      input: await signedLink(alice.id, account, ip),
      ip,
      site: SITE,
      now: T0,
    });
    expect(await refusal(unlinkWallet(db, bob, linked.id))).toBe("WALLET_NOT_FOUND");
    // Alice has no email or phone: this wallet is her only way to sign in.
    expect(await refusal(unlinkWallet(db, alice, linked.id))).toBe("WALLET_LAST_SIGN_IN");
    await db
      .update(users)
      .set({ email: `w${alice.id}@example.test` })
      .where(eq(users.id, alice.id));
    const withEmail = { ...alice, email: `w${alice.id}@example.test` };
    await unlinkWallet(db, withEmail, linked.id);
    expect(await listWallets(db, alice.id)).toEqual([]);
    // Once removed the wallet may sign up on its own.
    expect((await login(await signedLogin(account, ip), ip)).created).toBe(true);
  });

  it("a user may link at most the policy's number of wallets", async () => {
    const user = await createTrader(db, {});
    const ips = Array.from({ length: 8 }, nextIp);
    const inputs = await Promise.all(
      ips.map(async (ip) => ({ ip, input: await signedLink(user.id, wallet(), ip) })),
    );
    const results = await Promise.allSettled(
      inputs.map(({ ip, input }) => linkWallet(db, user, { input, ip, site: SITE, now: T0 })),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(5);
    for (const r of results) {
      if (r.status === "rejected") {
        expect((r.reason as AppError).code).toBe("WALLET_LIMIT");
      }
    }
    expect(await listWallets(db, user.id)).toHaveLength(5);
    const [row] = await db
      .select({ n: count() })
      .from(sessions)
      .where(and(eq(sessions.userId, user.id)));
    expect(row?.n).toBe(0);
  });
});
