import { translate } from "@northstar/shared/i18n";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInAdmin } from "./operators.ts";
import { type Platform, startPlatform } from "./platform.ts";
import { confirmModal } from "./users.ts";

let platform: Platform;
let operator: Page;
// A symbol no seeded instrument has, new on every run.
const base = `T${Date.now().toString(36).toUpperCase().slice(-5)}`;
const symbol = `${base}USDT`;

beforeAll(async () => {
  platform = await startPlatform();
  operator = await (await platform.newContext()).newPage();
  await signInAdmin(operator, platform);
  await operator.waitForURL(/\/admin(?!\/login)/);
});
afterAll(async () => {
  await platform?.close();
});

const field = (name: string) => operator.getByTestId(`admin-instrument-${name}`);

/** The symbols the public market list finds for a search. */
async function publicSymbols(search: string): Promise<string[]> {
  const input = encodeURIComponent(JSON.stringify({ search }));
  const response = await fetch(`${platform.baseUrl}/trpc/market.list?input=${input}`);
  expect(response.status).toBe(200);
  const body = (await response.json()) as { result: { data: { items: { symbol: string }[] } } };
  return body.result.data.items.map((i) => i.symbol);
}

describe("the instrument catalogue in the back office", () => {
  it("adds an instrument, refusing a minimum below the lot size until it is mended", async () => {
    await operator.goto("/admin/instruments");
    await operator.getByTestId("admin-instruments-table").waitFor();
    await operator.getByTestId("admin-instrument-add").click();
    await operator.getByTestId("admin-instrument-editor").waitFor();
    // The browser asks for reduced motion, so antd's transitions take no time (0.2 s otherwise).
    await expect(
      operator
        .getByTestId("admin-instrument-save")
        .evaluate((button) => getComputedStyle(button).transitionDuration),
    ).resolves.toMatch(/^0s(, 0s)*$/);
    await field("symbol").fill(symbol.toLowerCase()); // typed codes become upper-case
    await field("name").fill("Test coin");
    await field("base").fill(base);
    await field("tickSize").fill("0.0001");
    await field("lotSize").fill("0.1");
    await field("minQty").fill("0.01");
    await field("referencePrice").fill("1.2345");
    await field("volatility").fill("0.8");
    await expect(field("symbol").inputValue()).resolves.toBe(symbol);

    await operator.getByTestId("admin-instrument-save").click();
    const minBelowLot = operator.getByText(translate("en", "admin.instruments.minBelowLot"));
    await minBelowLot.waitFor();
    await field("minQty").fill("0.1");
    await minBelowLot.waitFor({ state: "detached" });
    await operator.getByTestId("admin-instrument-save").click();
    await operator.getByTestId("admin-instrument-editor").waitFor({ state: "hidden", timeout: 15_000 });

    await operator.getByTestId("admin-instrument-search").locator("input").fill(symbol);
    await operator.getByTestId(`admin-instrument-edit-${symbol}`).waitFor();
    await expect(operator.getByTestId(`admin-instrument-enabled-${symbol}`).isChecked()).resolves.toBe(true);
    expect(await publicSymbols(base)).toEqual([symbol]);
  });

  it("edits it with its symbol locked, and the change shows in the list", async () => {
    await operator.getByTestId(`admin-instrument-edit-${symbol}`).click();
    await operator.getByTestId("admin-instrument-editor").waitFor();
    await expect(field("symbol").isDisabled()).resolves.toBe(true);
    await expect(field("lotSize").inputValue()).resolves.toBe("0.1");
    await field("name").fill("Test coin renamed");
    // Its live price source: the crypto exchange, under the exchange's own symbol.
    await field("feedSource").click();
    await operator
      .locator(".ant-select-item-option", { hasText: translate("en", "admin.instruments.source.ccxt") })
      .click();
    await field("sourceSymbol").fill(`${base}/USDT`);
    await operator.getByTestId("admin-instrument-save").click();
    await operator.getByTestId("admin-instrument-editor").waitFor({ state: "hidden", timeout: 15_000 });
    await operator.getByTestId("admin-instruments-table").getByText("Test coin renamed").waitFor();
    // The market page tells anyone where its prices come from.
    const input = encodeURIComponent(JSON.stringify({ symbol }));
    const response = await fetch(`${platform.baseUrl}/trpc/market.instrument?input=${input}`);
    const body = (await response.json()) as { result: { data: { prices: unknown } } };
    expect(body.result.data.prices).toMatchObject({
      feedSource: "ccxt",
      sourceSymbol: `${base}/USDT`,
      paused: null,
    });
  });

  it("disables it after a confirmation, and it leaves the public market list", async () => {
    await operator.getByTestId(`admin-instrument-enabled-${symbol}`).click();
    await confirmModal(operator, "admin-confirm-ok");
    await operator.getByTestId(`admin-instrument-off-${symbol}`).waitFor({ timeout: 15_000 });
    await expect(operator.getByTestId(`admin-instrument-enabled-${symbol}`).isChecked()).resolves.toBe(false);
    expect(await publicSymbols(base)).toEqual([]);
  });
});
