import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInAdmin } from "./operators.ts";
import { type Platform, startPlatform } from "./platform.ts";
import { SCREENSHOT_TEST_TIMEOUT_MS, shootMatrix } from "./screenshot-matrix.ts";
import { depositUsdt } from "./spot-funding.ts";
import { confirmModal, pageAs, registerUser } from "./users.ts";

/*
 * Proof of liabilities in the browser: a user funded by a real deposit, a proof published by the
 * operator (`pnpm admin proof:publish`), the public page listing its root and totals, and "verify my
 * balance" recomputing the root in the browser from the user's own leaf and path. Screenshots go to
 * docs/screenshots/proofs.
 */
let platform: Platform;
let user: Page;
let token: string;

beforeAll(async () => {
  platform = await startPlatform();
  await platform.admin("deposit-address:set", "USDT", "ERC20", `0x${"ab".repeat(20)}`);
  token = await registerUser(platform, `proof-${Date.now()}@example.com`, "Secret123");
  await depositUsdt(platform, token, "1500");
  const other = await registerUser(platform, `proof2-${Date.now()}@example.com`, "Secret123");
  await depositUsdt(platform, other, "250");
  await platform.admin("proof:publish");
  user = await pageAs(platform, token);
});
afterAll(async () => {
  await platform?.close();
});

describe("proof of liabilities in the browser", () => {
  it("lists the published totals and verifies the user's balance against the root in the browser", async () => {
    await user.goto("/proofOfLiabilities");
    await user.getByTestId("proof-published").first().waitFor();
    expect(await user.getByTestId("proof-total-USDT").first().textContent()).toBe("1,750.00");
    const result = user.getByTestId("proof-verify-result");
    await result.waitFor();
    expect(await result.getAttribute("data-ok")).toBe("true");
    expect(await user.getByTestId("proof-balance-USDT").textContent()).toBe("1,500.00");
    // What the balance and the total are made of, by bucket: all of it free to use here.
    expect(await user.getByTestId("proof-bucket-USDT-available").textContent()).toBe("1,500.00");
    expect(await user.getByTestId("proof-bucket-USDT").textContent()).toContain("Available");
    expect(await user.getByTestId("proof-total-USDT-available").first().textContent()).toBe("1,750.00");
    expect(await user.getByTestId("proof-bucket-USDT-held").count()).toBe(0);
    const root = await user.getByTestId("proof-published").first().locator(".ns-num").first().textContent();
    expect(await user.getByTestId("proof-recomputed").textContent()).toBe(root);
  });

  it("fits a 390 px phone: the root hashes wrap instead of widening the page", async () => {
    const phone = await pageAs(platform, token, { width: 390, height: 844 });
    await phone.goto("/proofOfLiabilities");
    await phone.getByTestId("proof-published").first().waitFor();
    await phone
      .getByTestId("proof-recomputed")
      .filter({ hasText: /^[0-9a-f]{64}$/ })
      .waitFor();
    const widths = await phone.evaluate(() => ({
      page: document.documentElement.scrollWidth,
      recomputed:
        document.querySelector('[data-testid="proof-recomputed"]')?.getBoundingClientRect().right ?? 0,
    }));
    expect(widths.page).toBeLessThanOrEqual(390);
    expect(widths.recomputed).toBeLessThanOrEqual(390);
    await phone.context().close();
  });

  it("a visitor sees the totals and is asked to log in to verify", async () => {
    const visitor = await (await platform.newContext()).newPage();
    await visitor.goto("/proofOfLiabilities");
    await visitor.getByTestId("proof-published").first().waitFor();
    expect(await visitor.getByTestId("proof-verify").count()).toBe(0);
  });

  it("an operator publishes another proof from the back office", async () => {
    const operator = await (await platform.newContext()).newPage();
    await signInAdmin(operator, platform);
    await operator.waitForURL(/\/admin(?!\/login)/);
    await operator.goto("/admin/proofs");
    await operator.locator(".ant-table-row").first().waitFor();
    // The CLI's proof, and the worker's daily one published at its start.
    const before = await operator.locator(".ant-table-row").count();
    await operator.getByTestId("admin-proof-publish").click();
    await confirmModal(operator, "admin-confirm-ok");
    await expect.poll(() => operator.locator(".ant-table-row").count()).toBe(before + 1);
  });

  it(
    "takes screenshots of the page",
    async () => {
      await shootMatrix(platform, {
        folder: "proofs",
        token,
        pages: [
          {
            name: "proof",
            path: "/proofOfLiabilities",
            ready: async (page) => {
              await page.getByTestId("proof-verify-result").waitFor();
              await page.getByTestId("proof-published").first().waitFor();
            },
          },
        ],
      });
    },
    SCREENSHOT_TEST_TIMEOUT_MS,
  );
});
