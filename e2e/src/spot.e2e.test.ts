import { MoneyDecimal } from "@northstar/shared/money";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Platform, startPlatform } from "./platform.ts";
import { depositUsdt } from "./spot-funding.ts";
import { confirmModal, pageAs, registerUser } from "./users.ts";

let platform: Platform;
let user: Page;

beforeAll(async () => {
  platform = await startPlatform();
  await platform.admin("deposit-address:set", "USDT", "ERC20", `0x${"ab".repeat(20)}`);
  const token = await registerUser(platform, `spot-${Date.now()}@example.com`, "Secret123");
  await depositUsdt(platform, token, "10000");
  user = await pageAs(platform, token, { width: 1440, height: 900 });
});
afterAll(async () => {
  await platform?.close();
});

/** The figure in an element's text, without digit grouping or currency ("9,089.9 USDT" → "9089.9"). */
async function figure(page: Page, testId: string): Promise<string> {
  const text = (await page.getByTestId(testId).first().textContent()) ?? "";
  return (/[\d,]+(\.\d+)?/.exec(text)?.[0] ?? "").replace(/,/g, "");
}

/** Confirms a dialog, and waits until it has closed, so the action has been taken before going on. */
/** Confirms a dialog once its button takes clicks (a busy one says data-ready="false"). */

const historyRow = () => user.getByTestId("orders-history").getByTestId("order-row").first();

describe("spot trading in the browser", () => {
  let price = "";

  it("places a limit buy below the market; it rests in current orders and in the book", async () => {
    await user.goto("/currency?symbol=BTCUSDT");
    await user.getByTestId("order-form").waitFor();
    await expect.poll(() => figure(user, "order-available"), { timeout: 20_000 }).toBe("10000");
    // The market maker's bids are 0.05 % apart: 0.3 % under the best bid is its own level, well in view.
    await user.getByTestId("book-bid").first().waitFor({ timeout: 30_000 });
    const bestBid = (await user.getByTestId("book-bid").first().getAttribute("data-price")) ?? "";
    price = new MoneyDecimal(bestBid).times("0.997").toDecimalPlaces(2, MoneyDecimal.ROUND_DOWN).toFixed(2);

    await user.getByTestId("order-price").fill(price);
    await user.getByTestId("order-quantity").fill("0.01234");
    await user.getByTestId("order-submit").click();
    await expect(user.getByTestId("summary-quantity").textContent()).resolves.toContain("0.01234 BTC");
    await confirmModal(user, "order-confirm");
    await user.locator(".ant-message").getByText("Order placed").waitFor();

    const open = user.getByTestId("orders-open").getByTestId("order-row");
    await expect.poll(() => open.count(), { timeout: 10_000 }).toBe(1);
    await expect
      .poll(() => open.getByTestId("order-status").getAttribute("data-status"), { timeout: 15_000 })
      .toBe("open");
    await expect(open.getByTestId("order-status").textContent()).resolves.toBe("Unfilled");

    const level = user.locator(`[data-testid="book-bid"][data-price="${new MoneyDecimal(price).toFixed()}"]`);
    await expect
      .poll(
        async () =>
          (await level
            .getByTestId("book-qty")
            .textContent()
            .catch(() => "")) ?? "",
        {
          timeout: 10_000,
        },
      )
      .toBe("0.01234");
    await expect(level.getAttribute("data-mine")).resolves.toBe("true");
    // The funds are held: 10,000 less price × quantity.
    // The hold is price × quantity rounded up to USDT's 6 decimals: it never holds less than the order spends.
    const held = new MoneyDecimal(price).times("0.01234").toDecimalPlaces(6, MoneyDecimal.ROUND_UP);
    await expect
      .poll(() => figure(user, "order-available"), { timeout: 15_000 })
      .toBe(new MoneyDecimal(10000).minus(held).toFixed());
  });

  it("cancels it: it leaves current orders and shows Cancelled in the history", async () => {
    await user.getByTestId("orders-open").getByTestId("order-cancel").click();
    await user.getByTestId("order-cancel-confirm").click();
    await user.getByTestId("orders-open-empty").waitFor({ timeout: 15_000 });
    await expect
      .poll(() =>
        user.locator(`[data-testid="book-bid"][data-price="${new MoneyDecimal(price).toFixed()}"]`).count(),
      )
      .toBe(0);
    await expect.poll(() => figure(user, "order-available"), { timeout: 15_000 }).toBe("10000");

    await user.getByTestId("orders-tab-history").click();
    await expect
      .poll(() => historyRow().getByTestId("order-status").getAttribute("data-status"), { timeout: 10_000 })
      .toBe("cancelled");
    await expect(historyRow().getByTestId("order-status").textContent()).resolves.toBe("Cancelled");
  });

  it("buys at market against the market maker and sees the trade, the fee and the new balances", async () => {
    // The first order's "Order placed" notice may still be showing; this order's must be its own.
    const placed = user.locator(".ant-message").getByText("Order placed");
    await placed.waitFor({ state: "detached", timeout: 10_000 });
    await user.getByTestId("order-type-market").click();
    await user.getByTestId("order-quantity").fill("0.002");
    await expect(user.getByTestId("order-protection").textContent()).resolves.toContain("5%");
    await user.getByTestId("order-submit").click();
    await expect(user.getByTestId("summary-price").textContent()).resolves.toContain("Best market price");
    await confirmModal(user, "order-confirm");
    await placed.waitFor();

    // History (still the open tab from before): Filled, the whole quantity, the fee in BTC.
    await expect
      .poll(() => historyRow().getByTestId("order-status").getAttribute("data-status"), { timeout: 15_000 })
      .toBe("filled");
    await expect(historyRow().getByTestId("order-status").textContent()).resolves.toBe("Filled");
    await expect(historyRow().getByTestId("order-filled").textContent()).resolves.toBe("0.002");
    // 0.1 % taker fee, taken from the BTC received.
    await expect(historyRow().getByTestId("order-fee").textContent()).resolves.toBe("0.000002 BTC");

    // Quote down: by what the fills cost (between the price now and the protection limit).
    await expect
      .poll(async () => new MoneyDecimal(await figure(user, "order-available")).lt(10000), {
        timeout: 10_000,
      })
      .toBe(true);
    const usdt = new MoneyDecimal(await figure(user, "order-available"));
    expect(usdt.gt(10000 - 0.002 * 200_000)).toBe(true);
    // Base up: what was bought, less the fee.
    await user.getByTestId("order-side-sell").click();
    await expect.poll(() => figure(user, "order-available"), { timeout: 15_000 }).toBe("0.001998");

    // The fill in the records.
    await user.getByTestId("all-orders").click();
    await user.waitForURL(/\/currencyRecord/);
    await user.getByTestId("record-tab-fills").click();
    const fill = user.getByTestId("fill-row");
    await expect.poll(() => fill.count(), { timeout: 10_000 }).toBeGreaterThan(0);
    await expect(fill.first().getByTestId("fill-quantity").textContent()).resolves.toBe("0.002");
    await expect(fill.first().getByTestId("fill-fee").textContent()).resolves.toBe("0.000002 BTC");
    await user.getByTestId("record-tab-history").click();
    await expect
      .poll(() => user.getByTestId("orders-history").getByTestId("order-row").count(), { timeout: 10_000 })
      .toBe(2);
    // The deal log opens on the fills.
    await user.goto("/deallog");
    await user.getByTestId("fill-row").first().waitFor();
    await expect(
      user.getByTestId("fill-row").first().getByTestId("fill-quantity").textContent(),
    ).resolves.toBe("0.002");
    expect(await platform.admin("reconcile")).toContain("ledger balances");
  });
});
