import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInAdmin } from "./operators.ts";
import { type Platform, startPlatform } from "./platform.ts";
import { SCREENSHOT_TEST_TIMEOUT_MS, shootMatrix } from "./screenshot-matrix.ts";
import { confirmModal, PHOTO_PNG, pageAs, registerUser, trpcMutation, uploadPhoto } from "./users.ts";

/*
 * A loan in the browser: a verified user sees the quote, uploads the proofs, ticks the agreement
 * and applies after the confirmation; an operator approves it in the back office, which disburses
 * it; the user repays part of it from the balance after the confirmation. Verification itself is
 * tested in kyc.e2e: here it is applied through the API and approved with the operator CLI.
 * Screenshots of the application page (with a quote) go to docs/screenshots/loans.
 */
let platform: Platform;
let user: Page;
let token: string;

/** Approves every verification application under review with the operator CLI. */
async function approveQueue() {
  const queue = JSON.parse(await platform.admin("kyc:list", "under_review")) as { id: number }[];
  for (const application of queue) {
    await platform.admin("kyc:approve", String(application.id));
  }
}

/** Primary, then advanced KYC applied through the API and approved by the operator CLI. */
async function verify() {
  await trpcMutation(platform, token, "kyc.applyPrimary", {
    document_type: 2,
    real_name: "Ada Lovelace",
    document_number: "X1234567",
    front_upload_id: await uploadPhoto(platform, token),
    back_upload_id: await uploadPhoto(platform, token),
    handheld_upload_id: await uploadPhoto(platform, token),
  });
  await approveQueue();
  await trpcMutation(platform, token, "kyc.applyAdvanced", {
    occupation: 3,
    monthly_income: "5000",
    source_of_wealth: "Salary",
    expected_investment: "20000",
    assets: [{ kind: "bankDeposit", upload_id: await uploadPhoto(platform, token) }],
  });
  await approveQueue();
}

beforeAll(async () => {
  platform = await startPlatform();
  await platform.admin(
    "loans:product:create",
    JSON.stringify({
      name: "Quick loan",
      currency: "USDT",
      cycle_days: [7, 14, 30],
      daily_rate: "0.001",
      overdue_rate: "0.005",
      min_amount: "100",
      max_amount: "5000",
      enabled: true,
    }),
  );
  token = await registerUser(platform, `loans-${Date.now()}@example.com`, "Secret123");
  await verify();
  user = await pageAs(platform, token);
});
afterAll(async () => {
  await platform?.close();
});

async function upload(page: Page, testId: string) {
  await Promise.all([
    page.waitForResponse((r) => r.url().includes("/uploads/proof") && r.ok()),
    page
      .locator(`input[type="file"][data-testid="${testId}"], [data-testid="${testId}"] input[type="file"]`)
      .setInputFiles({ name: `${testId}.png`, mimeType: "image/png", buffer: PHOTO_PNG }),
  ]);
}

describe("a loan in the browser", () => {
  it("shows the quote, and applies with the proofs and the agreement after the confirmation", async () => {
    await user.goto("/ldcoin");
    await expect.poll(() => user.getByTestId("loan-available").textContent()).toBe("5,000.00 USDT");
    await user.getByTestId("loan-amount").fill("1000");
    await expect.poll(() => user.getByTestId("loan-quote-interest").textContent()).toBe("7.00 USDT");
    expect(await user.getByTestId("loan-quote-total").textContent()).toBe("1,007.00 USDT");
    for (const kind of ["credit", "housing", "income", "bank", "id_photo"]) {
      await upload(user, `loan-proof-${kind}`);
    }
    // The agreement is readable before its box is ticked, with this application's own figures.
    await user.getByTestId("loan-agreement-open").click();
    await user.getByTestId("loan-agreement").waitFor();
    expect(await user.getByTestId("loan-agreement").textContent()).toContain("1,007.00 USDT");
    await user.keyboard.press("Escape");
    await user.getByTestId("loan-agreement").waitFor({ state: "hidden" });
    await user.getByTestId("loan-agree").check();
    await user.getByTestId("loan-apply").click();
    await user.getByTestId("summary-total").waitFor();
    expect(await user.getByTestId("summary-total").textContent()).toContain("1,007.00 USDT");
    await confirmModal(user, "loan-apply-confirm");
    await user.waitForURL(/\/repayment2/);
    const loan = user.getByTestId("loan").first();
    await loan.waitFor();
    expect(await loan.getAttribute("data-status")).toBe("unreviewed");
  });

  it("an operator approves it in the back office, which disburses it", async () => {
    const operator = await (await platform.newContext()).newPage();
    await signInAdmin(operator, platform);
    await operator.waitForURL(
      (url) => url.pathname.startsWith("/admin") && !url.pathname.startsWith("/admin/login"),
    );
    await operator.goto("/admin/loans");
    const approve = operator.locator('[data-testid^="loans-admin-approve-"]').first();
    await approve.waitFor({ timeout: 15_000 });
    await approve.click();
    await confirmModal(operator, "admin-confirm-ok");
    await expect
      .poll(() => operator.locator('[data-testid^="loans-admin-approve-"]').count(), { timeout: 15_000 })
      .toBe(0);
    await user.goto("/repayment2");
    await expect.poll(() => user.getByTestId("loan").first().getAttribute("data-status")).toBe("disbursed");
    expect(await user.getByTestId("loan-owed").first().textContent()).toBe("1,007.00 USDT");
  });

  it("repays part from the balance after the confirmation", async () => {
    await user.getByTestId("loan-repay").first().click();
    await user.waitForURL(/\/repaymentNew\?id=/);
    await expect.poll(() => user.getByTestId("loan-repay-owed").textContent()).toBe("1,007.00 USDT");
    await user.getByTestId("loan-repay-amount").fill("500");
    await user.getByTestId("loan-repay-submit").click();
    await user.getByTestId("summary-amount").waitFor();
    expect(await user.getByTestId("summary-amount").textContent()).toContain("500.00 USDT");
    await confirmModal(user, "loan-repay-confirm");
    await user.waitForURL(/\/repayment2/);
    await expect.poll(() => user.getByTestId("loan").first().getAttribute("data-status")).toBe("repaying");
    expect(await user.getByTestId("loan-owed").first().textContent()).toBe("507.00 USDT");
  });

  it("repays by wire only once the platform publishes its account, then shows the wire pending review", async () => {
    await user.goto("/repayment2");
    await user.getByTestId("loan-repay").first().click();
    await user.waitForURL(/\/repaymentNew\?id=/);
    // No account published: the wire option is off and says why.
    await user.getByTestId("loan-repay-owed").waitFor();
    expect(await user.getByTestId("loan-repay-method").textContent()).toMatch(/wire/i);
    expect(await user.locator('[data-testid="loan-repay-method"] .ant-segmented-item-disabled').count()).toBe(
      1,
    );
    await platform.admin(
      "policy:set",
      "loans.wire.account",
      JSON.stringify({
        bankName: "Northstar Bank",
        accountName: "Northstar Ltd",
        accountNumber: "GB29NWBK60161331926819",
        swift: "NWBKGB2L",
      }),
    );
    await user.reload();
    await user.getByTestId("loan-repay-owed").waitFor();
    await user.locator('[data-testid="loan-repay-method"] .ant-segmented-item').nth(1).click();
    await expect
      .poll(() => user.getByTestId("loan-wire-account").textContent())
      .toContain("GB29NWBK60161331926819");
    await user.getByTestId("loan-repay-amount").fill("100");
    await upload(user, "loan-wire-proof");
    await user.getByTestId("loan-repay-submit").click();
    await confirmModal(user, "loan-repay-confirm");
    await user.waitForURL(/\/repayment2/);
    await user.getByTestId("loan-repay").first().click();
    await user.getByTestId("loan-wire-pending").waitFor();
    expect(await user.getByTestId("loan-wire-pending").textContent()).toContain("100.00 USDT");
  });

  it(
    "takes screenshots of the application page",
    async () => {
      await shootMatrix(platform, {
        folder: "loans",
        token,
        pages: [
          {
            name: "apply",
            path: "/ldcoin",
            ready: async (page) => {
              await page.getByTestId("loan-available").waitFor();
              await page.getByTestId("loan-amount").fill("1000");
              await page.getByTestId("loan-quote-total").waitFor();
            },
          },
        ],
      });
    },
    SCREENSHOT_TEST_TIMEOUT_MS,
  );
});
