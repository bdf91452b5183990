import pg from "pg";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Platform, startPlatform } from "./platform.ts";
import { SCREENSHOT_TEST_TIMEOUT_MS, SHOT_SIZES, shootMatrix } from "./screenshot-matrix.ts";
import { depositUsdt } from "./spot-funding.ts";
import { registerUser, trpcMutation } from "./users.ts";

/*
 * The assets page shows everything the user owns: a user funded with 2000 USDT puts 500 in a
 * managed-earning product and subscribes to 1000 NSTR of a new-coin offering (100 USDT), which the
 * operator allocates (the coins stay locked). The page lists the locked NSTR and the earn principal
 * under "in products and pending", and the total assets (1900 USDT: 1400 free + 500 in custody)
 * include the principal; NSTR has no price on the platform yet and the page says it is left out.
 * Light and dark, desktop and phone. Screenshots go to docs/screenshots/assets.
 */
let platform: Platform;
let token: string;

beforeAll(async () => {
  platform = await startPlatform();
  await platform.admin("deposit-address:set", "USDT", "ERC20", `0x${"ab".repeat(20)}`);
  const product = await platform.admin(
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
  token = await registerUser(platform, `assets-${Date.now()}@example.com`, "Secret123");
  await depositUsdt(platform, token, "2000");
  const offering = await platform.admin(
    "launchpad:create",
    JSON.stringify({
      coin: "NSTR",
      name: "Northstar Token",
      pay_currency: "USDT",
      issue_price: "0.12",
      subscribe_price: "0.1",
      total_quantity: "1000000",
      min_quantity: "100",
      max_quantity: "50000",
      starts_at: new Date(Date.now() - 3_600_000).toISOString(),
      ends_at: new Date(Date.now() + 3_600_000).toISOString(),
      lock_days: 30,
      listing_day: "2027-01-15",
      circulation: "50000000",
    }),
  );
  await trpcMutation(platform, token, "launchpad.subscribe", {
    offering_id: (JSON.parse(offering) as { id: number }).id,
    quantity: "1000",
  });
  await trpcMutation(platform, token, "earn.buy", {
    product_id: (JSON.parse(product) as { id: number }).id,
    amount: "500",
  });
  const offeringId = String((JSON.parse(offering) as { id: number }).id);
  // Time moves to the window's close (the test's clock: the offering's end set to now), and the
  // operator runs the allocation.
  const db = new pg.Client({ connectionString: platform.databaseUrl });
  await db.connect();
  await db.query("update launchpad_offerings set ends_at = now() - interval '1 second' where id = $1", [
    offeringId,
  ]);
  await db.end();
  await platform.admin("launchpad:allocate", offeringId);
}, 300_000);
afterAll(async () => {
  await platform?.close();
});

async function openAssets(theme: "light" | "dark", size: { width: number; height: number }): Promise<Page> {
  const context = await platform.newContext(size);
  await context.addInitScript(
    ([t, th]) => {
      localStorage.setItem("token", t);
      localStorage.setItem("theme", th);
    },
    [token, theme] as const,
  );
  const page = await context.newPage();
  await page.goto("/table1");
  await page.getByTestId("holding-row-NSTR").waitFor();
  return page;
}

describe("the assets page shows everything the user owns", () => {
  for (const theme of ["light", "dark"] as const) {
    for (const size of SHOT_SIZES) {
      it(`lists the locked NSTR and the earn principal, and the total includes them (${theme}, ${size.name})`, async () => {
        const page = await openAssets(theme, size);
        const text = (id: string) => page.getByTestId(id).first().textContent();
        // The allocated coins, locked: in "launchpad holds", the whole holding, no USDT value yet.
        expect(await text("holding-NSTR-launchpad")).toBe("1,000.00000000");
        expect(await text("holding-NSTR-total")).toBe("1,000.00000000");
        expect(await text("holding-NSTR-value")).toBe("—");
        // USDT: 2000 − 100 paid for NSTR − 500 in custody free; 500 principal; total 1900.
        expect(await text("holding-USDT-earn_principal")).toBe("500.00");
        // Each part is named in words.
        const usdtRow = (await text("holding-row-USDT")) ?? "";
        expect(usdtRow).toContain("Earn custody principal");
        expect(await text("holding-row-NSTR")).toContain("Launchpad holds");
        expect(usdtRow).not.toContain("bucket");
        expect(await text("holding-USDT-total")).toBe("1,900.00");
        expect(await text("holding-USDT-value")).toBe("1,900.00");
        // Total assets include the principal (the exchange account alone holds 1400).
        expect(await text("assets-total")).toBe("1,900.00");
        expect(await text("assets-account-total")).toBe("1,400.00 USDT");
        expect(await text("assets-total-note")).toContain("this platform's last prices");
        expect(await text("holdings-valuation")).toContain("NSTR");
        // Nothing wider than the viewport.
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
          size.width,
        );
        await page.context().close();
      });
    }
  }

  it(
    "takes screenshots of the assets page",
    async () => {
      await shootMatrix(platform, {
        folder: "assets",
        token,
        pages: [
          { name: "overview", path: "/table1", ready: (p) => p.getByTestId("holding-row-NSTR").waitFor() },
        ],
      });
    },
    SCREENSHOT_TEST_TIMEOUT_MS,
  );
});
