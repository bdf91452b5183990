import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { MoneyDecimal } from "@northstar/shared/money";
import pg from "pg";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Platform, screenshotsDir, startPlatform } from "./platform.ts";
import { SCREENSHOT_TEST_TIMEOUT_MS } from "./screenshot-matrix.ts";
import { depositUsdt } from "./spot-funding.ts";
import { confirmModal, pageAs, registerUser, trpcMutation } from "./users.ts";

/**
 * Options in the browser: buy an up option, watch it open with its countdown, let it settle, and
 * read the delivery record. The settlement price is driven: the test records the first tick at the
 * expiry instant in the platform's database, as the worker does from the feed (the feed's own ticks
 * keep arriving too; the first one at or after the expiry decides).
 */
let platform: Platform;
let user: Page;
let token: string;
let db: pg.Client;

const PRODUCTS = {
  BTCUSDT: {
    periods: [
      { seconds: 10, payoutRate: "0.8", feeRate: "0.01", min: "10", max: "1000" },
      { seconds: 300, payoutRate: "0.88", feeRate: "0.01", min: "10", max: "1000" },
    ],
    tie: "refund",
  },
  ETHUSDT: {
    periods: [{ seconds: 60, payoutRate: "0.82", feeRate: "0.01", min: "10", max: "1000" }],
    tie: "refund",
  },
};

beforeAll(async () => {
  platform = await startPlatform();
  await platform.admin("deposit-address:set", "USDT", "ERC20", `0x${"ab".repeat(20)}`);
  await platform.admin("policy:set", "options.products", JSON.stringify(PRODUCTS));
  token = await registerUser(platform, `options-${Date.now()}@example.com`, "Secret123");
  await depositUsdt(platform, token, "1000");
  await trpcMutation(platform, token, "transfer.create", {
    from: "exchange",
    to: "option",
    currency: "USDT",
    amount: "500",
  });
  db = new pg.Client({ connectionString: platform.databaseUrl });
  await db.connect();
  user = await pageAs(platform, token, { width: 1280, height: 900 });
});
afterAll(async () => {
  await db?.end();
  await platform?.close();
});

/** The figure in an element's text, without digit grouping or currency ("579.00 USDT" → "579.00"). */
async function figure(page: Page, testId: string): Promise<string> {
  const text = (await page.getByTestId(testId).first().textContent()) ?? "";
  return new MoneyDecimal((/[\d,]+(\.\d+)?/.exec(text)?.[0] ?? "0").replace(/,/g, "")).toFixed();
}

describe("options in the browser", () => {
  it("buys an up option, shows it open with a countdown, settles it at expiry and records the profit", async () => {
    await user.goto("/options?symbol=BTCUSDT");
    await user.getByTestId("option-buy-form").waitFor({ timeout: 30_000 });
    await expect.poll(() => figure(user, "option-available"), { timeout: 20_000 }).toBe("500");
    await user.getByTestId("option-period-10").click();
    await user.getByTestId("option-preset-100").click();
    // The feed's first ticks are recorded within a second or two of the worker starting.
    await expect
      .poll(
        async () =>
          (await db.query("select count(*)::int as n from option_ticks where symbol = 'BTCUSDT'")).rows[0].n,
        {
          timeout: 30_000,
        },
      )
      .toBeGreaterThan(0);
    await user.getByTestId("option-buy-up").click();
    await expect(user.getByTestId("summary-total").textContent()).resolves.toContain("101.00 USDT");
    await expect(user.getByTestId("summary-win").textContent()).resolves.toContain("180.00 USDT");
    await confirmModal(user, "option-confirm");
    await user.locator(".ant-message").getByText("Option bought").waitFor();

    const { rows } = await db.query<{ id: string; expires_at: Date; purchase_price: string }>(
      "select id, expires_at, purchase_price::text from option_orders order by id desc limit 1",
    );
    const order = rows[0];
    if (!order) {
      throw new Error("no order recorded");
    }
    const card = user.getByTestId(`option-order-${order.id}`);
    await card.waitFor();
    await expect(card.getAttribute("data-status")).resolves.toBe("open");
    await expect(card.getByTestId("option-countdown").textContent()).resolves.toMatch(/^0:(0\d|10)$/);
    await expect.poll(() => figure(user, "option-available")).toBe("399");
    // The first tick at or after the expiry instant: 5 above the purchase price.
    const settlement = new MoneyDecimal(order.purchase_price).plus(5).toFixed();
    // Recorded as the worker records a live source's price: with where it came from.
    await db.query(
      `insert into option_ticks (symbol, price, time, source, source_symbol, source_time, source_id, received_at)
       values ('BTCUSDT', $1, $2, 'binance', 'BTC/USDT', $2, 'trade-1', $2::timestamptz + interval '21 milliseconds')`,
      [settlement, order.expires_at],
    );

    // SPEC section 8: the result, shown while the user watches; the order leaves the open list.
    await user
      .locator(".ant-message")
      .getByText("Options order expired with profit: +79 USDT")
      .waitFor({ timeout: 30_000 });
    await card.waitFor({ state: "detached", timeout: 15_000 });
    await expect.poll(() => figure(user, "option-available"), { timeout: 10_000 }).toBe("579");

    await user.getByTestId("option-record-link").click();
    const settled = user.getByTestId("option-record").getByTestId(`option-order-${order.id}`);
    await settled.waitFor();
    await expect(settled.getAttribute("data-status")).resolves.toBe("won");
    await expect(settled.getByTestId("option-profit").textContent()).resolves.toBe("+79 USDT");
    await expect(figure(user, "option-settlement-price")).resolves.toBe(settlement);
    // Where the settlement price came from, at the source's time in the user's zone, and the ticks around it.
    const source = settled.getByTestId("price-source");
    await expect(source.getAttribute("data-source")).resolves.toBe("binance");
    const expiry = await user.evaluate((iso) => {
      const d = new Date(iso);
      const two = (n: number) => String(n).padStart(2, "0");
      return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}.${String(d.getMilliseconds()).padStart(3, "0")}`;
    }, order.expires_at);
    await expect(source.textContent()).resolves.toContain(
      `Price ${await settled.getByTestId("option-settlement-price").textContent()} from binance at ${expiry}`,
    );
    await source.getByTestId("price-source-download").waitFor();
  });

  it(
    "writes screenshots of the trade screen and the delivery record (phone and desktop, light and dark, en, zh, ty)",
    async () => {
      // An open option with a long expiry, so the screen shows a countdown.
      const out = screenshotsDir("options");
      mkdirSync(out, { recursive: true });
      // A purchase needs a tick recorded in the last 5 s: on a busy machine the first try may miss it.
      await expect
        .poll(
          () =>
            trpcMutation(platform, token, "options.buy", {
              symbol: "BTCUSDT",
              direction: "down",
              amount: "20",
              period_seconds: 300,
            }).then(
              () => "bought",
              (error: Error) => error.message,
            ),
          { timeout: 30_000 },
        )
        .toBe("bought");
      for (const lang of ["en", "zh", "ty"]) {
        for (const theme of ["light", "dark"]) {
          for (const size of [
            { name: "phone", width: 390, height: 844 },
            { name: "desktop", width: 1280, height: 800 },
          ]) {
            const context = await platform.newContext({ width: size.width, height: size.height });
            await context.addInitScript(
              ([l, t, tok]) => {
                localStorage.setItem("lang", l);
                localStorage.setItem("theme", t);
                localStorage.setItem("token", tok);
              },
              [lang, theme, token] as const,
            );
            const page = await context.newPage();
            await page.goto("/options?symbol=BTCUSDT");
            await page.getByTestId("option-countdown").first().waitFor({ timeout: 30_000 });
            await page.screenshot({ path: join(out, `trade-${lang}-${theme}-${size.name}.png`) });
            if (theme === "light") {
              await page.goto("/optionsRecord");
              await page.getByTestId("option-record").waitFor({ timeout: 30_000 });
              await page.screenshot({ path: join(out, `record-${lang}-${theme}-${size.name}.png`) });
            }
            await context.close();
          }
        }
      }
    },
    SCREENSHOT_TEST_TIMEOUT_MS,
  );
});
