import type { BrowserContext } from "playwright-core";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Platform, startPlatform } from "./platform.ts";
import { SCREENSHOT_TEST_TIMEOUT_MS, shootMatrix } from "./screenshot-matrix.ts";

/*
 * Wallet sign-in in the browser: a test wallet (an EIP-1193 provider added to the page, whose
 * signatures come from a key made here) signs the server's EIP-4361 message on the login page and
 * lands signed in, with the wallet listed on /wallet. Without a wallet the button says so.
 * Screenshots of /wallet and of the login page with the wallet button go to docs/screenshots/wallet.
 */
let platform: Platform;
let context: BrowserContext;
const account = privateKeyToAccount(generatePrivateKey());

beforeAll(async () => {
  platform = await startPlatform();
  context = await platform.newContext({ width: 390, height: 844 });
  await context.exposeFunction("testWalletSign", (message: string) => account.signMessage({ message }));
  await context.addInitScript((address) => {
    const sign = (window as unknown as { testWalletSign: (m: string) => Promise<string> }).testWalletSign;
    (window as unknown as { ethereum: unknown }).ethereum = {
      async request({ method, params }: { method: string; params?: unknown[] }) {
        if (method === "eth_requestAccounts" || method === "eth_accounts") {
          return [address];
        }
        if (method === "eth_chainId") {
          return "0x1";
        }
        if (method === "personal_sign") {
          return sign(String(params?.[0]));
        }
        throw Object.assign(new Error(`unsupported ${method}`), { code: 4200 });
      },
    };
  }, account.address);
});
afterAll(async () => {
  await platform?.close();
});

describe("wallet sign-in in the browser", () => {
  let token = "";

  it("signs in with the injected wallet, creating the account, and lists the wallet", async () => {
    const page = await context.newPage();
    await page.goto("/login?redirect=%2Fwallet");
    await page.getByTestId("wallet-login").click();
    await page.waitForURL(/\/wallet$/);
    await page.getByTestId("wallet-address").first().waitFor();
    expect(await page.getByTestId("wallet-address").first().textContent()).toBe(account.address);
    token = await page.evaluate(() => localStorage.getItem("token") ?? "");
    expect(token.length).toBeGreaterThan(20);

    // Signed out and in again: the same account, still one wallet.
    await page.evaluate(() => localStorage.removeItem("token"));
    await page.goto("/login");
    await page.getByTestId("wallet-login").click();
    await page.waitForURL((url) => url.pathname === "/");
    await page.goto("/wallet");
    await page.getByTestId("wallet-row").first().waitFor();
    expect(await page.getByTestId("wallet-row").count()).toBe(1);
    // The account's only way in cannot be removed.
    await page.getByTestId("wallet-remove").click();
    await page.getByTestId("wallet-remove-confirm").click();
    await page.getByText(/only way to sign in/).waitFor();
    expect(await page.getByTestId("wallet-row").count()).toBe(1);
    await page.close();
  });

  it("without a wallet in the browser the button says so, and the recovery phrase is checked locally", async () => {
    const bare = await platform.newContext({ width: 390, height: 844 });
    const page = await bare.newPage();
    await page.goto("/login");
    await page.getByTestId("wallet-login").click();
    await page.getByTestId("wallet-login-notice").waitFor();
    expect(await page.getByTestId("wallet-login-notice").textContent()).toContain("No Ethereum wallet");

    await bare.addInitScript((t) => localStorage.setItem("token", t), token);
    const sent: string[] = [];
    page.on("request", (request) => sent.push(`${request.url()} ${request.postData() ?? ""}`));
    await page.goto("/wallet");
    const phrase = "legal winner thank year wave sausage worth useful legal winner thank yellow";
    await page.getByTestId("mnemonic-input").fill(phrase);
    await page.getByTestId("mnemonic-submit").click();
    await page.getByTestId("mnemonic-valid").waitFor();
    await page.getByTestId("mnemonic-input").fill(phrase.replace(/yellow$/, "year"));
    await page.getByTestId("mnemonic-submit").click();
    await page.getByTestId("mnemonic-invalid").waitFor();
    expect(sent.filter((s) => s.includes("sausage"))).toEqual([]);
    await bare.close();
  });

  it(
    "screenshots of /wallet",
    async () => {
      await shootMatrix(platform, {
        folder: "wallet",
        token,
        pages: [
          { name: "wallets", path: "/wallet", ready: (p) => p.getByTestId("wallet-row").first().waitFor() },
        ],
      });
    },
    SCREENSHOT_TEST_TIMEOUT_MS,
  );

  it(
    "screenshots of the login page with the wallet button and its no-wallet message",
    async () => {
      await shootMatrix(platform, {
        folder: "wallet",
        token: "",
        pages: [
          {
            name: "login",
            path: "/login",
            ready: async (p) => {
              await p.getByTestId("wallet-login").click();
              await p.getByTestId("wallet-login-notice").waitFor();
            },
          },
        ],
      });
    },
    SCREENSHOT_TEST_TIMEOUT_MS,
  );
});
