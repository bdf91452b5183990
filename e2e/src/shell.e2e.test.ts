import { LANGUAGES } from "@northstar/shared/languages";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Platform, startPlatform } from "./platform.ts";
import { pageAs, registerUser } from "./users.ts";

/** The web shell on a phone and a desktop: the tab bar, honest home figures, the header name, CJK buttons. */
let platform: Platform;
let phone: BrowserContext;
let desktop: BrowserContext;
const email = `shell-${Date.now()}@example.com`;

beforeAll(async () => {
  platform = await startPlatform();
  await platform.admin("deposit-address:set", "USDT", "ERC20", `0x${"ab".repeat(20)}`);
  await platform.admin("deposit-address:set", "BTC", "BTC", "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq");
  phone = await platform.newContext({ width: 390, height: 844 });
  desktop = await platform.newContext({ width: 1280, height: 800 });
});
afterAll(async () => {
  await platform?.close();
});

async function trpcQuery<T>(path: string, input?: unknown): Promise<T> {
  const query = input === undefined ? "" : `?input=${encodeURIComponent(JSON.stringify(input))}`;
  const res = await fetch(`${platform.baseUrl}/trpc/${path}${query}`);
  return ((await res.json()) as { result: { data: T } }).result.data;
}

const digits = async (page: Page, testId: string) =>
  ((await page.getByTestId(testId).textContent()) ?? "").replace(/\D/g, "");

describe("the shell on a phone", () => {
  it("shows a bottom tab bar with the six sections, Me included, instead of the header menu, the current one marked", async () => {
    const page = await phone.newPage();
    await page.goto("/");
    const bar = page.getByTestId("tab-bar");
    await bar.waitFor();
    await expect(page.getByTestId("main-nav").isVisible()).resolves.toBe(false);
    for (const tab of ["tab-home", "tab-market", "tab-trade", "tab-earn", "tab-assets", "tab-me"]) {
      await expect(bar.getByTestId(tab).isVisible()).resolves.toBe(true);
    }
    await expect(page.getByTestId("tab-home").getAttribute("aria-current")).resolves.toBe("page");
    await page.getByTestId("tab-market").click();
    await page.waitForURL(/\/market/);
    await page.locator('[data-testid="tab-market"][aria-current="page"]').waitFor();
    await expect(page.getByTestId("tab-earn").getAttribute("href")).resolves.toBe("/profit_index");
    await expect(page.getByTestId("tab-me").getAttribute("href")).resolves.toBe("/setting");
    // The bar sits at the bottom of the screen.
    const box = await bar.boundingBox();
    expect(Math.round((box?.y ?? 0) + (box?.height ?? 0))).toBe(844);
    await page.close();
  });

  it("trades from a sticky Buy/Sell bar that opens the order form in a bottom sheet, book and trades in tabs", async () => {
    const token = await registerUser(platform, `phone-${email}`, "Secret123");
    const page = await pageAs(platform, token, { width: 390, height: 844 });
    await page.goto("/currency?symbol=BTCUSDT");
    await page.getByTestId("spot-phone-actions").waitFor();
    await expect(page.getByTestId("order-form").count()).resolves.toBe(0);
    await page.getByTestId("spot-phone-tabs").waitFor();
    await page.getByTestId("spot-phone-sell").click();
    await page.getByTestId("order-form").waitFor();
    await expect(page.getByTestId("order-side-sell").getAttribute("aria-checked")).resolves.toBe("true");
    // Contracts are live: the details show bitcoin's real maximum leverage (100x in the catalogue,
    // the crypto cap) and the contract kind beside spot.
    const details = page.getByTestId("instrument-details");
    await expect(details.textContent()).resolves.toMatch(/Maximum leverage\s*100x/);
    await expect(page.getByTestId("instrument-kinds").textContent()).resolves.toMatch(/Spot\s*Contract/);
    // The Contract tab of the market list leads to the contract trade screen.
    await page.goto("/market?tab=contract&q=BTCUSD");
    await page.getByTestId("market-row-BTCUSD").click();
    await page.waitForURL(/\/preciousMetal\?symbol=BTCUSD$/);
    // Contracts as spot: Open long / Open short stuck above the tab bar, the form in a bottom sheet.
    await page.getByTestId("contract-phone-actions").waitFor();
    await expect(page.getByTestId("contract-order-form").count()).resolves.toBe(0);
    const bar = await page.getByTestId("contract-phone-actions").boundingBox();
    expect((bar?.y ?? 0) + (bar?.height ?? 0)).toBeLessThanOrEqual(844 - 56);
    await page.getByTestId("contract-phone-long").click();
    await page.getByTestId("contract-phone-sheet").getByTestId("contract-order-form").waitFor();
    // Options too: Buy up / Buy down open the buy form.
    await page.goto("/options?symbol=BTCUSDT");
    await page.getByTestId("option-phone-actions").waitFor();
    await expect(page.getByTestId("option-buy-form").count()).resolves.toBe(0);
    await page.getByTestId("option-phone-down").click();
    await page.getByTestId("option-phone-sheet").getByTestId("option-buy-form").waitFor();
    await page.context().close();
  });

  it("reaches options from the trade screen (the tab bar has one Trade entry) and comes back to spot", async () => {
    const token = await registerUser(platform, `options-${email}`, "Secret123");
    const page = await pageAs(platform, token, { width: 390, height: 844 });
    await page.goto("/currency?symbol=BTCUSDT");
    const kinds = page.getByTestId("trade-kinds");
    await kinds.locator('a[aria-current="page"]', { hasText: "Spot" }).waitFor();
    await kinds.locator("a", { hasText: "Options" }).click();
    await page.waitForURL(/\/options/);
    await page.getByTestId("options-trade-page").waitFor();
    await expect(page.locator('[data-testid="tab-trade"][aria-current="page"]').count()).resolves.toBe(1);
    await page.getByTestId("trade-kinds").locator("a", { hasText: "Spot" }).click();
    await page.getByTestId("spot-trade-page").waitFor();
    await page.context().close();
  });
});

describe("the shell on a desktop", () => {
  it("keeps the header menu and shows no tab bar", async () => {
    const page = await desktop.newPage();
    await page.goto("/");
    await page.getByTestId("main-nav").waitFor();
    await expect(page.getByTestId("tab-bar").isVisible()).resolves.toBe(false);
    await page.close();
  });

  it("counts what the platform has on the home page, and claims no leverage", async () => {
    const page = await desktop.newPage();
    await page.goto("/");
    const markets = await trpcQuery<{ total: number }>("market.list", { tab: "all", page: 1, page_size: 1 });
    await page.getByTestId("home-figure-products").waitFor();
    await expect(digits(page, "home-figure-products")).resolves.toBe(String(markets.total));
    await page.getByTestId("home-figure-payments").waitFor();
    await expect(digits(page, "home-figure-payments")).resolves.toBe("2");
    await page.getByTestId("home-figure-languages").waitFor();
    await expect(digits(page, "home-figure-languages")).resolves.toBe(String(LANGUAGES.length));
    await expect(page.getByTestId("home-figures").textContent()).resolves.not.toMatch(/\+|leverage/i);
    await page.close();
  });

  it("names the user in the header by the nickname, not a cut email", async () => {
    const token = await registerUser(platform, email, "Secret123");
    const info = await fetch(`${platform.baseUrl}/web/info`, { headers: { token } });
    const { nickname } = ((await info.json()) as { data: { nickname: string } }).data;
    const page = await pageAs(platform, token, { width: 1280, height: 800 });
    await page.goto("/");
    await page.locator('[data-testid="user-menu"]', { hasText: nickname }).waitFor();
    await expect(page.getByTestId("user-menu").textContent()).resolves.not.toContain(email.slice(0, 12));
    await page.context().close();
  });

  it("writes two-character Chinese buttons without a space between the characters", async () => {
    const context = await platform.newContext({ width: 1280, height: 800 });
    await context.addInitScript(() => localStorage.setItem("lang", "zh"));
    const page = await context.newPage();
    await page.goto("/");
    // A filled button: antd leaves text and link buttons alone anyway.
    const signUp = page.getByTestId("header-register");
    await expect(signUp.textContent()).resolves.toBe("注册");
    // antd spaces two CJK characters apart by this class (letter-spacing), not by a character.
    await expect(signUp.getAttribute("class")).resolves.not.toContain("two-chinese-chars");
    await page.context().close();
  });
});
