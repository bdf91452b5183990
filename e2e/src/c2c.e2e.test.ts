import { expireDueC2cOrders } from "@northstar/domain/c2c";
import { createDb } from "@northstar/domain/db";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInAdmin } from "./operators.ts";
import { type Platform, startPlatform } from "./platform.ts";
import { SCREENSHOT_TEST_TIMEOUT_MS, shootMatrix } from "./screenshot-matrix.ts";
import { confirmModal, pageAs, registerUser, trpcMutation } from "./users.ts";

/*
 * C2C purchase by wire in the browser: a user with primary KYC picks a merchant (quick purchase),
 * confirms the order, sees the payee and the countdown, uploads the payment proof after a second
 * confirmation, and the coins arrive once the operator, seeing the proof in the back office, confirms
 * the wire. A second
 * order is left unpaid: the expiry sweep runs with a test clock moved past its 3-hour deadline, and
 * the open order page shows it expired. Screenshots go to docs/screenshots/c2c.
 */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);
let platform: Platform;
let user: Page;
let token: string;

async function uploadProof(): Promise<string> {
  const form = new FormData();
  form.append("proof", new Blob([PNG], { type: "image/png" }), "proof.png");
  const res = (await fetch(`${platform.baseUrl}/uploads/proof`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}` },
    body: form,
  }).then((r) => r.json())) as { data: { id: string } };
  return res.data.id;
}

/** Primary KYC the way a user gets it: an application with three photos, approved by the operator CLI. */
async function verifyPrimary() {
  const [front, back, handheld] = [await uploadProof(), await uploadProof(), await uploadProof()];
  const applied = (await trpcMutation(platform, token, "kyc.applyPrimary", {
    document_type: 2,
    real_name: "Lin Mei",
    document_number: "E1234567",
    front_upload_id: front,
    back_upload_id: back,
    handheld_upload_id: handheld,
  })) as { result: { data: { id: number } } };
  await platform.admin("kyc:approve", String(applied.result.data.id));
}

beforeAll(async () => {
  platform = await startPlatform();
  const merchant = JSON.parse(
    await platform.admin(
      "c2c:merchant:create",
      JSON.stringify({
        name: "Harbour OTC",
        coin: "USDT",
        fiat: "CNY",
        price: "7.25",
        min_fiat: "100",
        max_fiat: "50000",
        payee_name: "Harbour Trading Ltd",
        bank_name: "Bank of Example",
        bank_account: "6222 0210 0009 8765",
        bank_branch: "Central branch",
      }),
    ),
  ) as { id: number };
  await platform.admin("c2c:stock:fund", String(merchant.id), "5000");
  token = await registerUser(platform, `c2c-${Date.now()}@example.com`, "Secret123");
  await verifyPrimary();
  user = await pageAs(platform, token);
});
afterAll(async () => {
  await platform?.close();
});

const orderIdOf = (page: Page) => Number(new URL(page.url()).searchParams.get("id"));
const orderStatus = (page: Page, status: string, timeout = 20_000) =>
  page.locator(`[data-testid="c2c-order"][data-status="${status}"]`).waitFor({ timeout });

describe("C2C purchase by wire in the browser", () => {
  it("buys from a chosen merchant: confirmation, payee and countdown, proof, operator confirmation, coins", async () => {
    await user.goto("/kjmbSelect");
    await user
      .getByTestId("c2c-merchant")
      .filter({ hasText: "Harbour OTC" })
      .getByTestId("c2c-merchant-choose")
      .click();
    await user.getByTestId("c2c-chosen-merchant").waitFor();
    await user.getByTestId("c2c-amount").fill("725");
    await expect.poll(() => user.getByTestId("c2c-quote-coin").textContent()).toBe("100 USDT");
    expect(await user.getByTestId("c2c-quote-fiat").textContent()).toBe("725.00 CNY");
    await user.locator('[data-testid="c2c-buy"]:not([disabled])').click();
    await confirmModal(user, "c2c-buy-confirm");
    await user.waitForURL(/\/c2c_order\?id=\d+/);
    const orderId = orderIdOf(user);
    await orderStatus(user, "matched");
    expect(await user.getByTestId("c2c-payee-account").textContent()).toContain("6222 0210 0009 8765");
    // Three hours from the match, counting down.
    expect(await user.getByTestId("c2c-countdown").textContent()).toMatch(/^(03:00:00|02:59:[0-5]\d)$/);

    await user.getByTestId("c2c-go-submit").click();
    await user.waitForURL(/\/c2c_submit\?id=\d+/);
    await Promise.all([
      user.waitForResponse((r) => r.url().includes("/uploads/proof") && r.ok()),
      user
        .locator('[data-testid="c2c-proof"] input[type="file"], input[type="file"][data-testid="c2c-proof"]')
        .setInputFiles({
          name: "wire.png",
          mimeType: "image/png",
          buffer: PNG,
        }),
    ]);
    await user.getByTestId("c2c-proof-note").fill("Wired from my own account");
    await user.locator('[data-testid="c2c-submit"]:not([disabled])').click();
    await confirmModal(user, "c2c-submit-confirm");
    await user.waitForURL(/\/c2c_order\?id=\d+/);
    await orderStatus(user, "paid");
    expect(await user.getByTestId("c2c-countdown").count()).toBe(0);

    // The operator opens the back office's queue, sees the proof image and confirms the wire.
    const operator = await (await platform.newContext()).newPage();
    await signInAdmin(operator, platform);
    await operator.waitForURL(
      (url) => url.pathname.startsWith("/admin") && !url.pathname.startsWith("/admin/login"),
    );
    await operator.goto("/admin/c2c");
    const row = operator.locator(`tr[data-row-key="${orderId}"]`);
    await row.getByTestId("c2c-admin-confirm").waitFor({ timeout: 15_000 });
    await expect
      .poll(() => row.locator("img").first().getAttribute("src"), { timeout: 15_000 })
      .toMatch(/^blob:/);
    expect(await row.textContent()).toContain("Wired from my own account");
    await row.getByTestId("c2c-admin-confirm").click();
    await confirmModal(operator, "admin-confirm-ok");
    await row.waitFor({ state: "detached", timeout: 15_000 });
    await operator.close();
    // The open order page polls and shows the outcome by itself.
    await orderStatus(user, "completed");
    expect(await user.getByTestId("c2c-order-coin").textContent()).toBe("100 USDT");
    // The CLI exits non-zero (and admin() throws) unless the ledger balances exactly.
    await expect(platform.admin("reconcile")).resolves.toContain("ledger balances");
  });

  it("leaves an order unpaid: at 3 hours on a test clock it expires and the page shows it", async () => {
    await user.goto("/c2c_index");
    await user.getByTestId("c2c-mode").getByText("By quantity").click();
    await user.getByTestId("c2c-amount").fill("50");
    await expect.poll(() => user.getByTestId("c2c-quote-fiat").textContent()).toBe("362.50 CNY");
    await user.locator('[data-testid="c2c-buy"]:not([disabled])').click();
    await confirmModal(user, "c2c-buy-confirm");
    await user.waitForURL(/\/c2c_order\?id=\d+/);
    await orderStatus(user, "matched");
    // The worker's expiry, run with a clock one second past the deadline instead of waiting 3 hours.
    const { db, close } = createDb(platform.databaseUrl, { max: 2 });
    try {
      expect(await expireDueC2cOrders(db, new Date(Date.now() + 3 * 3_600_000 - 60_000))).toBe(0);
      expect(await expireDueC2cOrders(db, new Date(Date.now() + 3 * 3_600_000 + 1000))).toBe(1);
    } finally {
      await close();
    }
    await orderStatus(user, "expired");
    await user.getByTestId("c2c-expired").waitFor();
    // The CLI exits non-zero (and admin() throws) unless the ledger balances exactly.
    await expect(platform.admin("reconcile")).resolves.toContain("ledger balances");
  });

  it(
    "takes screenshots of the quick purchase and an open order",
    async () => {
      await user.goto("/c2c_index");
      await user.getByTestId("c2c-amount").fill("1450");
      await expect.poll(() => user.getByTestId("c2c-quote-coin").textContent()).toBe("200 USDT");
      await user.locator('[data-testid="c2c-buy"]:not([disabled])').click();
      await confirmModal(user, "c2c-buy-confirm");
      await user.waitForURL(/\/c2c_order\?id=\d+/);
      const openOrder = orderIdOf(user);
      await shootMatrix(platform, {
        folder: "c2c",
        token,
        pages: [
          {
            name: "quick-buy",
            path: "/kjmbSelect",
            ready: (page) => page.getByTestId("c2c-merchant").first().waitFor(),
          },
          {
            name: "order",
            path: `/c2c_order?id=${openOrder}`,
            ready: (page) => page.getByTestId("c2c-countdown").waitFor(),
          },
        ],
      });
    },
    SCREENSHOT_TEST_TIMEOUT_MS,
  );
});
