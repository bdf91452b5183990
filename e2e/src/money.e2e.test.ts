import { MoneyDecimal } from "@northstar/shared/money";
import pg from "pg";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInAdmin } from "./operators.ts";
import { type Platform, startPlatform } from "./platform.ts";
import { confirmModal, pageAs, registerUser, trpcMutation } from "./users.ts";

// A 1×1 PNG, the smallest proof image the server accepts by content.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);
const TRADE_PASSWORD = "246810";

let platform: Platform;
let user: Page;
let operator: Page;

beforeAll(async () => {
  platform = await startPlatform();
  // The operator configures the USDT deposit address, and opens withdrawals all day because this
  // suite runs at any hour (the 12:00–24:00 Hong Kong window is tested at fixed instants elsewhere).
  await platform.admin("deposit-address:set", "USDT", "ERC20", `0x${"ab".repeat(20)}`);
  await platform.admin(
    "policy:set",
    "funding.withdraw.window",
    '{"start":0,"end":24,"timeZone":"Asia/Hong_Kong"}',
  );

  const token = await registerUser(platform, `money-${Date.now()}@example.com`, "Secret123");
  await trpcMutation(platform, token, "identity.setTradePassword", {
    login_password: "Secret123",
    trade_password: TRADE_PASSWORD,
    confirm_password: TRADE_PASSWORD,
  });
  user = await pageAs(platform, token);
  operator = await (await platform.newContext()).newPage();
});
afterAll(async () => {
  await platform?.close();
});

describe("money in the browser", () => {
  it("the user reports a USDT deposit with a proof image and sees it pending", async () => {
    await user.goto("/authenticationrj");
    await user.getByTestId("deposit-address").waitFor();
    await user.getByTestId("deposit-amount").fill("1500");
    await user.getByTestId("deposit-hash").fill(`0x${"1f".repeat(32)}`);
    // The form may be submitted only once the proof has finished uploading.
    await Promise.all([
      user.waitForResponse((r) => r.url().includes("/uploads/proof") && r.ok()),
      user
        .locator('input[type="file"]')
        .setInputFiles({ name: "proof.png", mimeType: "image/png", buffer: PNG }),
    ]);
    await user.getByTestId("deposit-submit").click();
    await confirmModal(user, "deposit-confirm");
    await user.waitForURL(/\/rechargeRecord/);
    await expect
      .poll(() => user.getByTestId("record-status").first().getAttribute("data-status"))
      .toBe("pending");
  });

  it("an operator confirms it in the back office", async () => {
    await signInAdmin(operator, platform);
    await operator.waitForURL(/\/admin(\/deposits)?$/);
    await operator.goto("/admin/deposits");
    const confirm = operator.locator('[data-testid^="admin-deposit-confirm-"]').first();
    await confirm.click();
    await confirmModal(operator, "admin-confirm-ok");
    await expect
      .poll(() => operator.locator('[data-testid^="admin-deposit-confirm-"]').count(), { timeout: 10_000 })
      .toBe(0);
  });

  it("the user sees the balance", async () => {
    await user.goto("/table1");
    await expect
      .poll(async () => (await user.getByTestId("asset-row-USDT").first().textContent()) ?? "", {
        timeout: 10_000,
      })
      .toMatch(/1,?500/);
    // Zero balances are hidden until the user asks for them (a new account holds ~30 empty currencies).
    await expect(user.getByTestId("asset-row-BTC").count()).resolves.toBe(0);
    await user.getByTestId("assets-hide-zero").click();
    await user.getByTestId("asset-row-BTC").first().waitFor();
    await user.getByTestId("assets-hide-zero").click();
    await expect.poll(() => user.getByTestId("asset-row-BTC").count(), { timeout: 5_000 }).toBe(0);
  });

  it("converts USDT to BTC (trading volume for the withdrawal rule) and moves part to the contract account", async () => {
    await user.goto("/transfer");
    await user.getByTestId("transfer-tab-convert").click();
    await user.getByTestId("convert-amount").fill("1350");
    await expect
      .poll(async () => (await user.getByTestId("convert-received").first().textContent()) ?? "")
      .toMatch(/0\.01/);
    await user.getByTestId("convert-submit").click();
    // The dialog shows a firm quote and the seconds it lasts; what it says is what is credited.
    await user.getByTestId("convert-countdown").waitFor();
    const confirmed = ((await user.getByTestId("convert-confirm-received").textContent()) ?? "").replace(
      /\s*BTC$/,
      "",
    );
    expect(confirmed).toMatch(/^0\.0\d+$/);
    await confirmModal(user, "convert-confirm");
    await expect
      .poll(async () => (await user.getByTestId("convert-available").textContent()) ?? "", {
        timeout: 10_000,
      })
      .toMatch(/150/);

    await user.getByTestId("transfer-tab-transfer").click();
    await user.getByTestId("transfer-amount").fill("20");
    await user.getByTestId("transfer-submit").click();
    await confirmModal(user, "transfer-confirm");
    // Wait for the transfer to land before leaving the page, or the request would be cut off.
    await expect
      .poll(async () => (await user.getByTestId("transfer-available").textContent()) ?? "", {
        timeout: 10_000,
      })
      .toMatch(/130/);
    await user.goto("/table2");
    await expect
      .poll(async () => (await user.getByTestId("asset-row-USDT").first().textContent()) ?? "", {
        timeout: 10_000,
      })
      .toMatch(/20/);
    // The ledger credited exactly the BTC the confirmation showed, to the last decimal (the assets
    // table shows it at BTC's display decimals, so the ledger is read itself).
    const db = new pg.Client({ connectionString: platform.databaseUrl });
    await db.connect();
    try {
      const btc = await db.query<{ balance: string }>(
        "select balance::text from ledger_accounts where currency = 'BTC' and wallet = 'exchange' and bucket = 'available' and book = 'real' and user_id is not null",
      );
      expect(btc.rows.map((r) => new MoneyDecimal(r.balance).toFixed())).toEqual([confirmed]);
    } finally {
      await db.end();
    }
  });

  it("adds a withdrawal address and withdraws; the record is pending", async () => {
    await user.goto("/walletAdd");
    await user.getByTestId("address-input").fill(`0x${"cd".repeat(20)}`);
    await user.getByTestId("address-remark").fill("my wallet");
    await user.getByTestId("address-submit").click();
    await user.waitForURL(/\/address/);

    await user.goto("/authenticationcj");
    await user.getByTestId("withdraw-terms").waitFor();
    await user.getByTestId("withdraw-address").click();
    await user.locator(".ant-select-item-option").first().click();
    await user.getByTestId("withdraw-amount").fill("100");
    await expect
      .poll(async () => (await user.getByTestId("withdraw-received").textContent()) ?? "")
      .toMatch(/95/);
    await user.getByTestId("withdraw-trade-password").fill(TRADE_PASSWORD);
    await user.getByTestId("withdraw-submit").click();
    await confirmModal(user, "withdraw-confirm");
    await user.waitForURL(/\/tbjl/);
    await expect
      .poll(() => user.getByTestId("record-status").first().getAttribute("data-status"))
      .toBe("pending");
  });

  it("the operator approves; the user sees it succeed and the ledger balances", async () => {
    await operator.goto("/admin/withdrawals");
    await operator.locator('[data-testid^="admin-withdrawal-approve-"]').first().click();
    await confirmModal(operator, "admin-confirm-ok");
    await expect
      .poll(() => operator.locator('[data-testid^="admin-withdrawal-approve-"]').count(), { timeout: 10_000 })
      .toBe(0);

    await user.goto("/tbjl");
    await expect
      .poll(() => user.getByTestId("record-status").first().getAttribute("data-status"), { timeout: 10_000 })
      .toBe("success");
    expect(await platform.admin("reconcile")).toContain("ledger balances");
  });
});
