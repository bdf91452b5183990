import { CHART_PERIODS } from "@northstar/shared/markets";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Platform, startPlatform } from "./platform.ts";
import { pageAs, registerUser } from "./users.ts";

/*
 * Market pages against the real platform: the worker's feed publishes prices, candles, depth and
 * trades, the API forwards them over /ws, and the pages show them live.
 */
let platform: Platform;
let visitor: Page;
let user: Page;

beforeAll(async () => {
  platform = await startPlatform();
  visitor = await (await platform.newContext()).newPage();
  const token = await registerUser(platform, `market-${Date.now()}@example.com`, "Secret123");
  user = await pageAs(platform, token);
});
afterAll(async () => {
  await platform?.close();
});

/** The texts of the price cells of a market table. */
const priceTexts = (page: Page, table: string) =>
  page
    .getByTestId(table)
    .locator('[data-testid^="market-price-"]')
    .allTextContents()
    .then((texts) => texts.join("|"));

describe("markets in the browser", () => {
  it("updates a price in the home page's market table without reloading", async () => {
    await visitor.goto("/");
    const table = visitor.getByTestId("home-market-table");
    await table.waitFor();
    await expect(table.locator('[data-testid="market-row-BTCUSDT"]').count()).resolves.toBe(1);
    // The feed publishes shortly after start: wait for real prices first.
    await expect
      .poll(() => visitor.getByTestId("market-price-BTCUSDT").textContent(), { timeout: 30_000 })
      .toMatch(/\d/);
    // Marks this document: a reload would lose it.
    await visitor.evaluate(() => {
      (window as unknown as { marketMark: number }).marketMark = 1;
    });
    const before = await priceTexts(visitor, "home-market-table");
    await expect.poll(() => priceTexts(visitor, "home-market-table"), { timeout: 15_000 }).not.toBe(before);
    await expect(
      visitor.evaluate(() => (window as unknown as { marketMark?: number }).marketMark),
    ).resolves.toBe(1);
  });

  it("asks a visitor to log in before keeping a favourite", async () => {
    await visitor.goto("/market?tab=exchange");
    await visitor.getByTestId("favourite-BTCUSDT").click();
    await visitor.locator(".ant-modal-confirm").waitFor();
    await visitor.locator(".ant-modal-confirm .ant-btn-primary").click();
    await visitor.waitForURL(/\/login\?redirect=%2Fmarket/);
  });

  it("opens an instrument with live data and redraws the chart for every period", async () => {
    await user.goto("/currency?symbol=BTCUSDT");
    await expect
      .poll(() => user.getByTestId("instrument-price").textContent(), { timeout: 30_000 })
      .toMatch(/\d/);
    await expect(user.getByTestId("instrument-symbol").textContent()).resolves.toBe("BTC/USDT");
    // The order book arrives over the socket: the spot market's own book, quoted by the market maker.
    await user.getByTestId("book-bid").first().waitFor({ timeout: 15_000 });
    await user.getByTestId("book-ask").first().waitFor();

    const chart = user.getByTestId("candle-chart");
    for (const period of CHART_PERIODS) {
      const button = user.getByTestId(`chart-period-${period}`);
      await button.click();
      await expect.poll(() => button.getAttribute("aria-pressed")).toBe("true");
      // The chart has loaded this period and shows candles: its history, or, for a period whose
      // history is still empty on a fresh platform, the forming candle once the socket brings it.
      await expect
        .poll(
          async () => ({
            period: await chart.getAttribute("data-period"),
            shown: Number(await chart.getAttribute("data-candles")) > 0,
          }),
          { timeout: 20_000 },
        )
        .toEqual({ period, shown: true });
      // Only the chosen period is pressed.
      await expect(user.locator('[data-testid^="chart-period-"][aria-pressed="true"]').count()).resolves.toBe(
        1,
      );
    }
  });

  it("shows the feed's depth and trade prints for an instrument without a spot book", async () => {
    // One that trades now (forex, metals and stocks keep sessions; at weekends none may be open).
    const list = await user.request.get(
      `/trpc/market.list?input=${encodeURIComponent(JSON.stringify({ tab: "all", page_size: 200 }))}`,
    );
    const items = (
      (await list.json()) as {
        result: { data: { items: { symbol: string; open: boolean; kinds: string[] }[] } };
      }
    ).result.data.items;
    const open = items.find((i) => i.open && !i.kinds.includes("spot"));
    await user.goto(`/currency?symbol=${open?.symbol ?? "XAUUSD"}`);
    await user.getByTestId("book-bid").first().waitFor({ timeout: 15_000 });
    if (open) {
      await user.getByTestId("trade-row").first().waitFor({ timeout: 15_000 });
    }
  });

  it("shows a translated not-found state for an unknown symbol", async () => {
    await user.goto("/currency?symbol=NOSUCHPAIR");
    await user.getByTestId("instrument-not-found").waitFor();
  });

  it("marks favourites on /market and on the instrument page; they appear under the Optional tab", async () => {
    await user.goto("/market?tab=optional");
    await user.getByTestId("market-favourites-empty").waitFor();

    await user.getByTestId("market-tab-exchange").click();
    const star = user.getByTestId("favourite-ETHUSDT");
    await star.click();
    await expect.poll(() => star.getAttribute("aria-pressed"), { timeout: 10_000 }).toBe("true");

    await user.goto("/currency?symbol=SOLUSDT");
    const instrumentStar = user.getByTestId("favourite-SOLUSDT");
    await instrumentStar.click();
    await expect.poll(() => instrumentStar.getAttribute("aria-pressed"), { timeout: 10_000 }).toBe("true");

    await user.goto("/market");
    await user.getByTestId("market-table").waitFor();
    await user.getByTestId("market-tab-optional").click();
    await user.waitForURL(/[?&]tab=optional/);
    const table = user.getByTestId("market-table");
    const rows = () =>
      table
        .locator('[data-testid^="market-row-"]')
        .evaluateAll((els) => els.map((e) => e.getAttribute("data-testid")).sort());
    await expect.poll(rows, { timeout: 10_000 }).toEqual(["market-row-ETHUSDT", "market-row-SOLUSDT"]);

    // Unmarking removes it from the tab.
    await table.getByTestId("favourite-ETHUSDT").click();
    await expect.poll(rows, { timeout: 10_000 }).toEqual(["market-row-SOLUSDT"]);
  });
});
