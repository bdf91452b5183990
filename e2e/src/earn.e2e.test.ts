import { mkdirSync } from "node:fs";
import pg from "pg";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInAdmin } from "./operators.ts";
import { type Platform, screenshotsDir, startPlatform } from "./platform.ts";
import { SCREENSHOT_TEST_TIMEOUT_MS, shootMatrix } from "./screenshot-matrix.ts";
import { depositUsdt } from "./spot-funding.ts";
import { confirmModal, pageAs, registerUser } from "./users.ts";

/*
 * Managed earning in the browser: a user funded by a real deposit buys a 7-day product after the
 * confirmation, sees it in my orders, sees the first day's yield once the daily job has run, and
 * redeems it early with the 5% penalty shown first. Screenshots of the two pages go to
 * docs/screenshots/earn (phone and desktop, light and dark, en, zh and ty).
 */
let platform: Platform;
let user: Page;
let token: string;

beforeAll(async () => {
  platform = await startPlatform();
  await platform.admin("deposit-address:set", "USDT", "ERC20", `0x${"ab".repeat(20)}`);
  await platform.admin(
    "earn:product:create",
    JSON.stringify({
      family: "ai",
      name: "AI Quant 7",
      currency: "USDT",
      cycle_days: 7,
      rate_min: "0.003",
      rate_max: "0.005",
      min_amount: "100",
      max_amount: "10000",
      user_limit: "20000",
      user_count: 5,
      capacity: "1000000",
      risk_level: "conservative",
      redemption_rule: "percent",
    }),
  );
  // A product above the risk level an unassessed user may buy (policy: conservative).
  await platform.admin(
    "earn:product:create",
    JSON.stringify({
      family: "ai",
      name: "AI Bold 7",
      currency: "USDT",
      cycle_days: 7,
      rate_min: "0.01",
      rate_max: "0.02",
      min_amount: "100",
      max_amount: "10000",
      user_limit: "20000",
      user_count: 5,
      capacity: "1000000",
      risk_level: "aggressive",
      redemption_rule: "percent",
    }),
  );
  token = await registerUser(platform, `earn-${Date.now()}@example.com`, "Secret123");
  await depositUsdt(platform, token, "2000");
  user = await pageAs(platform, token);
});
afterAll(async () => {
  await platform?.close();
});

describe("managed earning in the browser", () => {
  it("buys a product after the confirmation and sees it in my orders", async () => {
    await user.goto("/profit_index");
    const card = user.getByTestId("earn-product").filter({ hasText: "AI Quant 7" });
    await card.waitFor();
    expect(await card.getByTestId("earn-rate").textContent()).toBe("0.3% – 0.5%");
    await card.getByTestId("earn-amount").fill("500");
    // 500 × 0.3% × 7 to 500 × 0.5% × 7
    await expect.poll(() => card.getByTestId("earn-estimate").textContent()).toBe("10.50 USDT – 17.50 USDT");
    await card.getByTestId("earn-buy").click();
    await user.getByTestId("summary-amount").waitFor();
    expect(await user.getByTestId("summary-amount").textContent()).toContain("500.00 USDT");
    await confirmModal(user, "earn-buy-confirm");
    await user.waitForURL(/\/profit_wdtg/);
    const order = user.getByTestId("earn-order").first();
    await order.waitFor();
    expect(await order.getAttribute("data-status")).toBe("holding");
    expect(await order.getByTestId("earn-order-amount").textContent()).toBe("500.00 USDT");
    expect(await order.getByTestId("earn-order-days").textContent()).toBe("7");
    await expect.poll(() => user.getByTestId("earn-total-principal").textContent()).toContain("500.00");
  });

  it("shows before any confirmation that a product above the user's risk level cannot be bought", async () => {
    await user.goto("/profit_index");
    const card = user.getByTestId("earn-product").filter({ hasText: "AI Bold 7" });
    await card.getByTestId("earn-risk-blocked").waitFor();
    expect(await card.getByTestId("earn-risk-blocked").textContent()).toContain("Aggressive");
    expect(await card.getByTestId("earn-amount").isDisabled()).toBe(true);
    expect(await card.getByTestId("earn-buy").isDisabled()).toBe(true);
    const allowed = user.getByTestId("earn-product").filter({ hasText: "AI Quant 7" });
    expect(await allowed.getByTestId("earn-risk-blocked").count()).toBe(0);
  });

  it("sees the first day's yield in my orders once the daily job has run", async () => {
    // A day cannot pass in a browser test: the order is moved to yesterday, as if bought then, and
    // the operator runs the daily job (`pnpm admin earn:yield:run`, what the hourly scheduler runs).
    // The job pays what is due by now: one day at the range's lower end, 500 × 0.3% = 1.5 USDT.
    const db = new pg.Client({ connectionString: platform.databaseUrl });
    await db.connect();
    try {
      await db.query("update earn_orders set start_day = start_day - 1");
    } finally {
      await db.end();
    }
    expect(JSON.parse(await platform.admin("earn:yield:run"))).toMatchObject({ orders: 1, days: 1 });
    await user.goto("/profit_wdtg");
    const order = user.getByTestId("earn-order").first();
    await expect.poll(() => order.getByTestId("earn-order-profit").textContent()).toBe("1.50 USDT");
    expect(await order.getByTestId("earn-order-days").textContent()).toBe("6");
    // Run again: nothing more is due today.
    expect(JSON.parse(await platform.admin("earn:yield:run"))).toMatchObject({ orders: 0, days: 0 });
  });

  it(
    "takes screenshots of the product and order pages",
    async () => {
      await shootMatrix(platform, {
        folder: "earn",
        token,
        pages: [
          {
            name: "products",
            path: "/profit_index",
            ready: async (page) => {
              await page.getByTestId("earn-product").first().waitFor();
              await page.getByTestId("earn-total-principal").waitFor();
            },
          },
          {
            name: "orders",
            path: "/profit_wdtg",
            ready: async (page) => {
              await page.getByTestId("earn-order").first().waitFor();
              await page.getByTestId("earn-total-principal").waitFor();
            },
          },
        ],
      });
    },
    SCREENSHOT_TEST_TIMEOUT_MS,
  );

  it("redeems early: the penalty is shown first, then the order is redeemed", async () => {
    await user.goto("/profit_wdtg");
    const order = user.getByTestId("earn-order").first();
    await order.waitFor();
    await order.getByTestId("earn-redeem").click();
    await expect.poll(() => user.getByTestId("summary-penalty").textContent()).toContain("25.00 USDT");
    expect(await user.getByTestId("summary-returned").textContent()).toContain("475.00 USDT");
    await confirmModal(user, "earn-redeem-confirm");
    await expect
      .poll(() => user.getByTestId("earn-order").first().getAttribute("data-status"), { timeout: 10_000 })
      .toBe("redeemed");
  });

  it("the back office lists the product and the order, and the yield report opens", async () => {
    const operator = await (await platform.newContext()).newPage();
    await signInAdmin(operator, platform);
    await operator.waitForURL(/\/admin(\/deposits)?$/);
    await operator.goto("/admin/earn");
    await operator.getByRole("cell", { name: "AI Quant 7" }).waitFor();
    await operator.getByRole("tab").nth(2).click();
    await operator.getByRole("cell", { name: "E00000001" }).waitFor();
    await operator.getByRole("tab").nth(4).click();
    await operator.getByRole("tab", { selected: true }).waitFor();
    mkdirSync(screenshotsDir("earn"), { recursive: true });
    await operator.getByRole("tab").nth(0).click();
    await operator.getByRole("cell", { name: "AI Quant 7" }).waitFor();
    await operator.screenshot({ path: screenshotsDir("earn", "admin-en-light-desktop.png") });
  });
});
