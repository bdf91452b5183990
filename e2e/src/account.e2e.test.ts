import { LANGUAGE_INFO, LANGUAGES } from "@northstar/shared/languages";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Platform, startPlatform } from "./platform.ts";

let platform: Platform;
let page: Page;
const email = `e2e-${Date.now()}@example.com`;
const password = "Secret123";

beforeAll(async () => {
  platform = await startPlatform();
  const context = await platform.newContext();
  page = await context.newPage();
});
afterAll(async () => {
  await platform?.close();
});

const token = () => page.evaluate(() => localStorage.getItem("token"));

/** Calls a legacy endpoint as the session `token` (sent in the header: a token never goes in a URL). */
async function legacy(name: string, sessionToken: string) {
  const res = await fetch(`${platform.baseUrl}/web/${name}`, { headers: { token: sessionToken } });
  return (await res.json()) as { code: number; data: Record<string, unknown> };
}

/**
 * Opens a header menu once it is closed, and waits until it says it is open; the item is then clicked
 * once (playwright waits until it is visible, still and enabled).
 */
async function openMenu(trigger: string) {
  await page.locator(`[data-testid="${trigger}"][aria-expanded="false"]`).click();
  await page.locator(`[data-testid="${trigger}"][aria-expanded="true"]`).waitFor();
}

/** Logs out through the user menu. */
async function logOut() {
  await openMenu("user-menu");
  await page.getByTestId("user-menu-logout").click();
  await page.waitForURL(/\/login/);
}

describe("accounts in the browser", () => {
  it("sends a visitor on a protected route to /login and shows not-found for unknown paths", async () => {
    await page.goto("/table1");
    await page.waitForURL(/\/login\?redirect=%2Ftable1$/);
    await page.goto("/no-such-page");
    await expect(page.getByTestId("not-found").isVisible()).resolves.toBe(true);
  });

  it("registers by email with the code from the mail, and lands logged in", async () => {
    await page.goto("/register");
    await page.getByTestId("register-tab-email").click();
    await page.getByTestId("register-email").fill(email);
    await page.getByTestId("send-code").click();
    const code = await platform.mailbox.waitForCode(email);
    await page.getByTestId("register-code").fill(code);
    await page.getByTestId("register-password").fill(password);
    await page.getByTestId("register-confirm").fill(password);
    await page.getByTestId("register-nationality").click();
    await page.keyboard.type("United Kingdom");
    await page.keyboard.press("Enter");
    await page.getByTestId("register-agree").check();
    await page.getByTestId("register-submit").click();
    await page.getByTestId("user-menu").waitFor();
    expect(await token()).toMatch(/^[\w-]{40,}$/);
    // Signed in on the home page, not left on the filled sign-up form; the hero asks for a
    // transaction password, none being set yet.
    await page.waitForURL((url) => url.pathname === "/");
    // The sign-up form goes once the home page has loaded in its place.
    await page.getByTestId("register-submit").waitFor({ state: "detached" });
    const welcome = page.locator('[data-testid="home-welcome-text"][data-secured]');
    await welcome.waitFor();
    expect(await welcome.getAttribute("data-secured")).toBe("false");
    expect(await welcome.textContent()).toContain("set a transaction password");
  });

  it("shows the profile with the user's number and saves a new nickname", async () => {
    await page.goto("/info");
    await expect(page.getByTestId("profile-uid").textContent()).resolves.toMatch(/\d{8}/);
    await page.getByTestId("profile-nickname").fill("Trader Jo");
    await page.getByTestId("profile-nickname-save").click();
    await page.waitForFunction(async () => {
      const t = localStorage.getItem("token") ?? "";
      const res = await fetch("/web/info", { headers: { token: t } });
      return ((await res.json()) as { data: { nickname: string } }).data.nickname === "Trader Jo";
    });
  });

  it("sets the trade password", async () => {
    const before = await legacy("hasTpassword", (await token()) ?? "");
    expect(before.data.has).toBe(0);
    await page.goto("/bindmpwd");
    await page.getByTestId("trade-login-password").fill(password);
    await page.getByTestId("trade-password").fill("246810");
    await page.getByTestId("trade-confirm").fill("246810");
    await page.getByTestId("trade-submit").click();
    await expect
      .poll(async () => (await legacy("hasTpassword", (await token()) ?? "")).data.has, {
        timeout: 10_000,
      })
      .toBe(1);
    // Once it is set, the home hero stops asking for it and points to deposits and assets.
    await page.goto("/");
    const welcome = page.locator('[data-testid="home-welcome-text"][data-secured]');
    expect(await welcome.getAttribute("data-secured")).toBe("true");
    expect(await welcome.textContent()).not.toContain("set a transaction password");
    await page.getByTestId("home-deposit").waitFor();
  });

  it("logs out, then logs in again by email and password", async () => {
    const old = await token();
    await logOut();
    expect(await token()).toBeNull();
    // The server revoked the old token too: it now answers 2000.
    expect((await legacy("info", old ?? "")).code).toBe(2000);

    await page.getByTestId("login-tab-email").click();
    await page.getByTestId("login-email").fill(email);
    // A wrong password is refused in words (the refusal texts load after the first paint).
    await page.getByTestId("login-password").fill(`${password}x`);
    await page.getByTestId("login-submit").click();
    const refusal = page.locator(".ant-form-item-explain-error").first();
    await refusal.waitFor();
    expect(await refusal.textContent()).toMatch(/^Account or password is wrong\. \d+ attempts left/);
    await page.getByTestId("login-password").fill(password);
    await page.getByTestId("login-submit").click();
    await page.getByTestId("user-menu").waitFor();
    expect(await token()).not.toBe(old);
  });

  it("switches through all 8 languages, each changing the navigation text", async () => {
    await page.goto("/");
    // The home page has rendered its own content: nothing above the header is still loading.
    await page.getByTestId("home-markets").waitFor();
    const seen = new Set<string>();
    for (const lang of LANGUAGES) {
      await openMenu("language-switcher");
      await page.getByTestId(`lang-${lang}`).click();
      // A language other than the one loaded first is fetched on demand (its own chunk): allow for a
      // slow machine.
      await expect
        .poll(() => page.evaluate(() => localStorage.getItem("lang")), { timeout: 10_000 })
        .toBe(lang);
      // The switch is complete (texts swapped in, the page re-rendered) once the document says so:
      // a menu opened before that can be re-rendered under the next click.
      await page.locator(`html[lang="${LANGUAGE_INFO[lang].bcp47}"]`).waitFor({ state: "attached" });
      // The menu has closed (its items hidden) before the next one opens.
      await page.getByTestId(`lang-${lang}`).waitFor({ state: "hidden" });
      const home = (await page.getByTestId("main-nav").locator("li").first().textContent()) ?? "";
      expect(seen.has(home)).toBe(false);
      seen.add(home);
    }
    expect(seen.size).toBe(8);
    await openMenu("language-switcher");
    await page.getByTestId("lang-en").click();
  });

  it("switches to dark mode and keeps it after a reload", async () => {
    const lightBg = await page.evaluate(
      () => getComputedStyle(document.querySelector(".ns-shell") as Element).backgroundColor,
    );
    await page.getByTestId("theme-toggle").click();
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe("dark");
    await page.reload();
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe("dark");
    const darkBg = await page.evaluate(
      () => getComputedStyle(document.querySelector(".ns-shell") as Element).backgroundColor,
    );
    expect(darkBg).not.toBe(lightBg);
  });

  it("after logging out, protected routes go to /login again", async () => {
    await logOut();
    await page.goto("/editPassword");
    await page.waitForURL(/\/login\?redirect=/);
  });
  it("opens a demo account with a chosen simulated amount, shows it as demo, and exits it", async () => {
    await page.goto("/login");
    await page.getByTestId("demo-open").click();
    await page.getByTestId("demo-amount-50000").click();
    await page.getByTestId("demo-start").click();
    await page.waitForURL(/\/table1/);
    await page.getByTestId("demo-banner").waitFor();
    await page.getByTestId("assets-demo-tag").waitFor();
    await expect
      .poll(async () => (await page.getByTestId("asset-row-USDT").first().textContent()) ?? "", {
        timeout: 10_000,
      })
      .toMatch(/50,?000/);
    await page.getByTestId("demo-exit").click();
    await page.waitForURL(/\/login/);
    expect(await token()).toBeNull();
  });
});
