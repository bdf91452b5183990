import { createHmac } from "node:crypto";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInAdmin } from "./operators.ts";
import { type Platform, screenshotsDir, startPlatform } from "./platform.ts";
import { SCREENSHOT_TEST_TIMEOUT_MS, shootMatrix } from "./screenshot-matrix.ts";
import { pageAs, registerUser, trpcMutation } from "./users.ts";

/** The security centre's API keys page (/apiKeys), driven as a user, against the real platform. */
let platform: Platform;
let page: Page;
let token = "";
const email = `apikeys-${Date.now()}@example.com`;
const TRADE_PASSWORD = "246810";

beforeAll(async () => {
  platform = await startPlatform();
  token = await registerUser(platform, email, "Secret123");
  await trpcMutation(platform, token, "identity.setTradePassword", {
    login_password: "Secret123",
    trade_password: TRADE_PASSWORD,
    confirm_password: TRADE_PASSWORD,
  });
  page = await pageAs(platform, token);
});
afterAll(async () => {
  await platform?.close();
});

/** A signed GET /api/v3/account as a bot makes it: the Binance code of a refusal, or 0. */
async function account(apiKey: string, secret: string): Promise<number> {
  const query = `timestamp=${Date.now()}`;
  const signature = createHmac("sha256", secret).update(query).digest("hex");
  const res = await fetch(`${platform.baseUrl}/api/v3/account?${query}&signature=${signature}`, {
    headers: { "x-mbx-apikey": apiKey },
  });
  return res.ok ? 0 : ((await res.json()) as { code: number }).code;
}

const fieldError = (field: string) =>
  page.locator(`.ant-form-item:has([data-testid="${field}"]) .ant-form-item-explain-error`);

const created = { apiKey: "", secret: "", id: 0 };

describe("API keys in the browser", () => {
  it("refuses a key without a label or with a wrong trade password, translated, and creates none", async () => {
    await page.goto("/apiKeys");
    await page.getByText("You have no API keys yet.").waitFor();
    await page.getByTestId("api-key-trade-password").fill(TRADE_PASSWORD);
    await page.getByTestId("api-key-create").click();
    await fieldError("api-key-label").first().waitFor();

    await page.getByTestId("api-key-label").fill("grid bot");
    await page.getByTestId("api-key-trade-password").fill("135791");
    await page.getByTestId("api-key-create").click();
    await fieldError("api-key-trade-password")
      .filter({ hasText: "The transaction password is wrong" })
      .waitFor();

    await page.getByTestId("api-key-trade-password").fill(TRADE_PASSWORD);
    await page.getByTestId("api-key-ips").fill("not-an-address");
    await page.getByTestId("api-key-create").click();
    await fieldError("api-key-ips").filter({ hasText: "IP addresses separated by commas" }).waitFor();

    // Nothing was created by the refused attempts.
    const res = await fetch(`${platform.baseUrl}/trpc/apiKeys.list`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(((await res.json()) as { result: { data: unknown[] } }).result.data).toEqual([]);
  });

  it("creates a key with the trade password and shows its secret once; the key signs", async () => {
    await page.getByTestId("api-key-ips").fill("");
    await page.getByTestId("api-key-spot-trade").check();
    await page.getByTestId("api-key-trade-password").fill(TRADE_PASSWORD);
    await page.getByTestId("api-key-create").click();
    const secret = page.getByTestId("api-key-secret");
    await secret.waitFor();
    created.apiKey = (await page.getByTestId("api-key-value").textContent()) ?? "";
    created.secret = (await secret.textContent()) ?? "";
    expect(created.apiKey).toMatch(/^[A-Za-z0-9]{64}$/);
    expect(created.secret).toMatch(/^[A-Za-z0-9]{64}$/);
    expect(await account(created.apiKey, created.secret)).toBe(0);

    await page.getByRole("button", { name: "I have saved it" }).click();
    await secret.waitFor({ state: "detached" });
    // The list shows the label and the key's first characters, never the secret.
    const row = page.locator('[data-testid^="api-key-"]').filter({ hasText: "grid bot" });
    await row
      .filter({ hasText: `${created.apiKey.slice(0, 8)}…` })
      .first()
      .waitFor();
    await row.filter({ hasText: "Spot trading" }).first().waitFor();
    expect(await page.content()).not.toContain(created.secret);
    const list = await (
      await fetch(`${platform.baseUrl}/trpc/apiKeys.list`, { headers: { authorization: `Bearer ${token}` } })
    ).json();
    created.id = (list as { result: { data: { id: number }[] } }).result.data[0]?.id ?? 0;
    expect(created.id).toBeGreaterThan(0);
    // A reload does not bring the secret back.
    await page.reload();
    await page.getByTestId(`api-key-${created.id}`).waitFor();
    expect(await page.content()).not.toContain(created.secret);
  });

  it("disables and enables the key, the bot refused while it is off, then deletes it", async () => {
    const toggle = page.getByTestId(`api-key-enabled-${created.id}`);
    const row = page.getByTestId(`api-key-${created.id}`);
    await toggle.click();
    await row.filter({ hasText: "Disabled" }).waitFor();
    await page.locator(`[data-testid="api-key-enabled-${created.id}"][aria-checked="false"]`).waitFor();
    expect(await account(created.apiKey, created.secret)).toBe(-2015);

    await toggle.click();
    await row.filter({ hasText: "Active" }).waitFor();
    expect(await account(created.apiKey, created.secret)).toBe(0);

    await page.getByTestId(`api-key-delete-${created.id}`).click();
    await page.getByRole("button", { name: "Delete", exact: true }).last().click();
    await row.waitFor({ state: "detached" });
    await page.getByText("You have no API keys yet.").waitFor();
    expect(await account(created.apiKey, created.secret)).toBe(-2015);
  });

  it("shows an operator the user's keys; a block stops the bot and the owner cannot lift it; the operator can", async () => {
    const bot = (await trpcMutation(platform, token, "apiKeys.create", {
      label: "market maker",
      spot_trade: true,
      ip_allow_list: "",
      trade_password: TRADE_PASSWORD,
    })) as { result: { data: { api_key: string; secret: string; key: { id: number; key_prefix: string } } } };
    const key = bot.result.data;
    const admin = await (await platform.newContext({ width: 1280, height: 800 })).newPage();
    await signInAdmin(admin, platform);

    // A user without keys: the empty state.
    const other = `apikeys-none-${Date.now()}@example.com`;
    await registerUser(platform, other, "Secret123");
    await admin.goto(`/admin/users?q=${encodeURIComponent(other)}`);
    await admin.getByTestId("admin-user-api-keys").getByText("This user has no API keys").waitFor();

    await admin.goto(`/admin/users?q=${encodeURIComponent(email)}`);
    const row = admin.getByTestId(`admin-api-key-${key.key.id}`);
    await row.filter({ hasText: `${key.key.key_prefix}…` }).waitFor();
    await row.filter({ hasText: "market maker" }).filter({ hasText: "Spot trading" }).waitFor();
    await row.filter({ hasText: "Never" }).waitFor();
    // The key deleted earlier is listed as deleted, without an action.
    await admin.getByTestId(`admin-api-key-${created.id}`).filter({ hasText: "Deleted" }).waitFor();
    expect(await admin.getByTestId(`admin-api-key-block-${created.id}`).count()).toBe(0);
    expect(await account(key.api_key, key.secret)).toBe(0);
    await row.filter({ hasText: "Active" }).waitFor();

    await admin.getByTestId(`admin-api-key-block-${key.key.id}`).click();
    // A block needs a reason: without one nothing is sent.
    await admin.getByTestId("admin-confirm-ok").click();
    await admin.getByText("Please enter").or(admin.locator(".ant-form-item-explain-error")).first().waitFor();
    expect(await account(key.api_key, key.secret)).toBe(0);
    await admin.getByTestId("admin-reject-reason").fill("Order flood");
    await admin.getByTestId("admin-confirm-ok").click();
    await row.filter({ hasText: "Blocked by support" }).waitFor();
    expect(await account(key.api_key, key.secret)).toBe(-2015);
    const shots = screenshotsDir("api-keys");
    mkdirSync(shots, { recursive: true });
    await admin.screenshot({ path: join(shots, "admin-en-light-desktop.png") });

    // The owner sees the block and cannot switch the key back on.
    await page.goto("/apiKeys");
    await page.getByTestId(`api-key-${key.key.id}`).filter({ hasText: "Blocked by support" }).waitFor();
    expect(await page.getByTestId(`api-key-enabled-${key.key.id}`).isDisabled()).toBe(true);

    await admin.getByTestId(`admin-api-key-unblock-${key.key.id}`).click();
    await admin.getByTestId("admin-reject-reason").fill("Limits agreed");
    await admin.getByTestId("admin-confirm-ok").click();
    await row.filter({ hasText: "Active" }).waitFor();
    expect(await account(key.api_key, key.secret)).toBe(0);
    // Both actions are in the audit log with their reasons.
    const audit = await admin.evaluate(async () => {
      const res = await fetch("/trpc/admin.audit", {
        headers: { "x-operator-token": sessionStorage.getItem("operatorToken") ?? "" },
      });
      return JSON.stringify(await res.json());
    });
    expect(audit).toContain("apikey.block");
    expect(audit).toContain("Order flood");
    expect(audit).toContain("apikey.unblock");

    // Chinese, dark: the operator's view of the same user.
    await admin.evaluate(() => {
      localStorage.setItem("lang", "zh");
      localStorage.setItem("theme", "dark");
    });
    await admin.reload();
    await row.filter({ hasText: "market maker" }).waitFor();
    await admin.getByTestId("admin-user-api-keys").getByText("API 密钥").waitFor();
    await admin.screenshot({ path: join(shots, "admin-zh-dark-desktop.png") });
    await admin.context().close();
  });

  it(
    "takes screenshots of the page with a key, light and dark, in English, Chinese and Thai",
    async () => {
      await trpcMutation(platform, token, "apiKeys.create", {
        label: "read only",
        spot_trade: false,
        ip_allow_list: "203.0.113.7",
        trade_password: TRADE_PASSWORD,
      });
      await shootMatrix(platform, {
        folder: "api-keys",
        token,
        pages: [
          {
            name: "list",
            path: "/apiKeys",
            ready: (p) => p.locator('[data-testid^="api-key-enabled-"]').first().waitFor(),
          },
        ],
      });
    },
    SCREENSHOT_TEST_TIMEOUT_MS,
  );
});
