import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { MoneyDecimal } from "@northstar/shared/money";
import pg from "pg";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Platform, screenshotsDir, startPlatform } from "./platform.ts";
import { SCREENSHOT_TEST_TIMEOUT_MS, shootMatrix } from "./screenshot-matrix.ts";
import { depositUsdt } from "./spot-funding.ts";
import { confirmModal, pageAs, registerUser, trpcMutation } from "./users.ts";

/**
 * Contracts in the browser: USDT moved to the contract account, a 10x long with TP and SL opened
 * after the confirmation shows its margin, fee and liquidation price; its PnL moves with the feed;
 * margin added, half closed, the rest closed with close all; the ledger records each step.
 */
let platform: Platform;
let user: Page;
let token: string;
let db: pg.Client;

beforeAll(async () => {
  platform = await startPlatform();
  await platform.admin("deposit-address:set", "USDT", "ERC20", `0x${"ab".repeat(20)}`);
  token = await registerUser(platform, `contracts-${Date.now()}@example.com`, "Secret123");
  await depositUsdt(platform, token, "1000");
  db = new pg.Client({ connectionString: platform.databaseUrl });
  await db.connect();
  user = await pageAs(platform, token, { width: 1280, height: 900 });
});
afterAll(async () => {
  await db?.end();
  await platform?.close();
});

/** The figure in an element's text, without digit grouping or currency ("579.00 USDT" → "579"). */
async function figure(page: Page, testId: string): Promise<string> {
  const text = (await page.getByTestId(testId).first().textContent()) ?? "";
  const match = /[-+]?[\d,]+(\.\d+)?/.exec(text)?.[0] ?? "0";
  return new MoneyDecimal(match.replace(/,/g, "").replace(/^\+/, "")).toFixed();
}

describe("contracts in the browser", () => {
  it("transfers USDT, opens a 10x long with TP/SL, watches PnL, adds margin, closes half and then all", async () => {
    await trpcMutation(platform, token, "transfer.create", {
      from: "exchange",
      to: "contract",
      currency: "USDT",
      amount: "500",
    });
    await user.goto("/preciousMetal?symbol=BTCUSDT");
    await user.getByTestId("contract-order-form").waitFor({ timeout: 30_000 });
    await expect.poll(() => figure(user, "contract-available"), { timeout: 20_000 }).toBe("500");
    await expect
      .poll(
        async () =>
          (await db.query("select count(*)::int as n from contract_ticks where symbol = 'BTCUSDT'")).rows[0]
            .n,
        { timeout: 30_000 },
      )
      .toBeGreaterThan(0);
    const { rows: latest } = await db.query<{ price: string }>(
      "select price::text from contract_ticks where symbol = 'BTCUSDT' order by id desc limit 1",
    );
    const price = new MoneyDecimal(latest[0]?.price ?? "0");
    await user.getByTestId("contract-lots").fill("0.02");
    await user.getByTestId("contract-leverage-10").click();
    await user.getByTestId("contract-tp").fill(price.times("1.5").toDecimalPlaces(2).toFixed());
    await user.getByTestId("contract-sl").fill(price.times("0.5").toDecimalPlaces(2).toFixed());
    await user.getByTestId("contract-open-long").click();
    // The confirmation shows margin, fee, the estimated liquidation price and the overnight rate.
    const dialog = user.locator(".ant-modal");
    await expect.poll(async () => Number(await figure(user, "contract-confirm-liq"))).toBeGreaterThan(0);
    await expect(dialog.getByTestId("summary-margin").textContent()).resolves.toMatch(/USDT/);
    await expect(dialog.getByTestId("summary-overnight").textContent()).resolves.toMatch(/0\.03%/);
    await confirmModal(user, "contract-confirm");

    const { rows } = await db.query<{ id: string; margin: string }>(
      "select id, margin::text from contract_positions order by id desc limit 1",
    );
    const id = rows[0]?.id;
    const card = user.getByTestId(`contract-position-${id}`);
    await card.waitFor({ timeout: 15_000 });
    // Live PnL: the feed ticks every second; the figure changes while the user watches.
    const first = await figure(user, "contract-pnl");
    await expect.poll(() => figure(user, "contract-pnl"), { timeout: 30_000 }).not.toBe(first);

    await card.getByTestId("contract-add-margin").click();
    await user.getByTestId("contract-margin-amount").fill("10");
    await confirmModal(user, "contract-margin-confirm");
    const added = new MoneyDecimal(rows[0]?.margin ?? "0").plus(10).toFixed();
    await expect.poll(() => figure(user, "contract-margin"), { timeout: 15_000 }).toBe(added);

    await card.getByTestId("contract-close-half").click();
    await confirmModal(user, "contract-close-confirm");
    await expect
      .poll(async () => (await card.textContent())?.includes("0.01 / 0.02"), { timeout: 15_000 })
      .toBe(true);

    await user.getByTestId("contract-close-all").click();
    await confirmModal(user, "contract-close-all-confirm");
    await card.waitFor({ state: "detached", timeout: 15_000 });
    await user.getByTestId("contract-tab-history").click();
    const done = user.getByTestId(`contract-position-${id}`);
    await done.waitFor({ timeout: 15_000 });
    await expect(done.getByTestId("contract-status").textContent()).resolves.toBe("Closed");

    // The ledger: the opening, the added margin and both closes, each one entry.
    const { rows: entries } = await db.query<{ kind: string }>(
      "select kind from journal_entries where reference_type = 'contract_position' and reference_id = $1 order by id",
      [id],
    );
    expect(entries.map((e) => e.kind)).toEqual([
      "contract.open",
      "contract.margin.add",
      "contract.close.user",
      "contract.close.user",
    ]);
    const held = await db.query<{ balance: string }>(
      "select balance::text from ledger_accounts a join users u on u.id = a.user_id where a.wallet = 'contract' and a.bucket = 'held' and a.user_id = (select user_id from contract_positions where id = $1)",
      [id],
    );
    expect(new MoneyDecimal(held.rows[0]?.balance ?? "0").isZero()).toBe(true);
  });

  it("a delivery contract shows its expiry (the next Friday 08:00 UTC for the weekly one); a perpetual shows none", async () => {
    await user.goto("/preciousMetal?symbol=BTCUSDT-W");
    const expiry = user.getByTestId("contract-expiry");
    await expiry.waitFor({ timeout: 30_000 });
    const at = new Date((await expiry.getAttribute("data-expires-at")) ?? "");
    expect(at.getUTCDay()).toBe(5);
    expect(at.toISOString().slice(11)).toBe("08:00:00.000Z");
    expect(at.getTime()).toBeGreaterThan(Date.now());
    expect(at.getTime() - Date.now()).toBeLessThanOrEqual(7 * 86_400_000);
    expect(await expiry.textContent()).toContain("Delivery contract: expires");
    await user.goto("/preciousMetal?symbol=BTCUSDT");
    await user.getByTestId("contract-order-form").waitFor({ timeout: 30_000 });
    expect(await user.getByTestId("contract-expiry").count()).toBe(0);
    // Pictures of the delivery contract's page: English light desktop, Chinese dark phone, Thai light phone.
    const out = screenshotsDir("contracts");
    mkdirSync(out, { recursive: true });
    for (const [lang, theme, size] of [
      ["en", "light", { name: "desktop", width: 1280, height: 800 }],
      ["zh", "dark", { name: "phone", width: 390, height: 844 }],
      ["ty", "light", { name: "phone", width: 390, height: 844 }],
    ] as const) {
      const context = await platform.newContext({ width: size.width, height: size.height });
      await context.addInitScript(
        ([l, th, t]) => {
          localStorage.setItem("lang", l);
          localStorage.setItem("theme", th);
          localStorage.setItem("token", t);
        },
        [lang, theme, token] as const,
      );
      const page = await context.newPage();
      await page.goto("/preciousMetal?symbol=BTCUSDT-W");
      await page.getByTestId("contract-expiry").waitFor({ timeout: 30_000 });
      await page.screenshot({ path: join(out, `delivery-${lang}-${theme}-${size.name}.png`) });
      await context.close();
    }
  });

  it(
    "writes screenshots of the trade screen with a position (phone and desktop, light and dark, en, zh, ty)",
    async () => {
      await expect
        .poll(
          () =>
            trpcMutation(platform, token, "contracts.open", {
              symbol: "BTCUSDT",
              side: "short",
              order_type: "market",
              lots: "0.01",
              leverage: 20,
            }).then(
              () => "opened",
              (error: Error) => error.message,
            ),
          { timeout: 30_000 },
        )
        .toBe("opened");
      await shootMatrix(platform, {
        folder: "contracts",
        token,
        pages: [
          {
            name: "trade",
            path: "/preciousMetal?symbol=BTCUSDT",
            ready: (page) => page.getByTestId("contract-pnl").first().waitFor({ timeout: 30_000 }),
          },
        ],
      });
      // Twelve pictures on a shared two-core machine: more time than one browser flow.
    },
    SCREENSHOT_TEST_TIMEOUT_MS,
  );
});
