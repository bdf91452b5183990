import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInAdmin } from "./operators.ts";
import { type Platform, startPlatform } from "./platform.ts";
import { SCREENSHOT_TEST_TIMEOUT_MS, shootMatrix } from "./screenshot-matrix.ts";
import { pageAs, registerUser } from "./users.ts";

// A 1×1 PNG, the smallest photo the server accepts by content.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);

let platform: Platform;
let token: string;
let user: Page;
let operator: Page;

beforeAll(async () => {
  platform = await startPlatform();
  token = await registerUser(platform, `kyc-${Date.now()}@example.com`, "Secret123");
  user = await pageAs(platform, token);
  operator = await (await platform.newContext()).newPage();
});
afterAll(async () => {
  await platform?.close();
});

/** Uploads a photo into the upload field with this test id and waits for the server's answer. */
async function upload(page: Page, testId: string) {
  await Promise.all([
    page.waitForResponse((r) => r.url().includes("/uploads/proof") && r.ok()),
    page
      .locator(`input[type="file"][data-testid="${testId}"], [data-testid="${testId}"] input[type="file"]`)
      .setInputFiles({ name: `${testId}.png`, mimeType: "image/png", buffer: PNG }),
  ]);
}

/** Approves the newest application under review in the back office. */
async function approveInBackOffice() {
  await operator.goto("/admin/kyc");
  const approve = operator.locator('[data-testid^="admin-kyc-approve-"]').first();
  await approve.waitFor({ timeout: 15_000 });
  await approve.click();
  await operator.getByTestId("admin-kyc-confirm").click();
  await expect
    .poll(() => operator.locator('[data-testid^="admin-kyc-approve-"]').count(), { timeout: 15_000 })
    .toBe(0);
}

describe("verification in the browser", () => {
  it("the alias /sfyz leads to the verification centre, where nothing is verified yet", async () => {
    await user.goto("/sfyz");
    await user.waitForURL(/\/authentication$/);
    await expect.poll(() => user.getByTestId("kyc-step-primary-status").textContent()).toBe("Not verified");
    await expect.poll(() => user.getByTestId("kyc-gate-c2c").textContent()).toContain("Please complete KYC");
  });

  it("the user applies for primary KYC with three photos and sees it under review", async () => {
    await user.goto("/smauth");
    await user.getByTestId("kyc-real-name").fill("Ada Lovelace");
    await user.getByTestId("kyc-document-number").fill("AB1234567");
    await upload(user, "kyc-photo-front");
    await upload(user, "kyc-photo-back");
    await upload(user, "kyc-photo-handheld");
    await user.getByTestId("kyc-submit").click();
    await expect.poll(() => user.getByTestId("kyc-application-status").textContent()).toBe("Under review");
  });

  it("an operator approves it in the back office, with the photos shown", async () => {
    await signInAdmin(operator, platform);
    await operator.waitForURL(
      (url) => url.pathname.startsWith("/admin") && !url.pathname.startsWith("/admin/login"),
    );
    await operator.goto("/admin/kyc");
    const row = operator.locator('[data-testid^="admin-kyc-row-"]').first();
    await row.waitFor();
    // The reviewer sees the fields by their labels, the document type as a word and the number in full
    // beside the photos, each photo named; the three photos load with the operator's header.
    await expect
      .poll(() => row.getByTestId("admin-kyc-detail-documentNumber").textContent())
      .toBe("AB1234567");
    expect(await row.getByTestId("admin-kyc-details").textContent()).not.toMatch(/documentType|realName/);
    await expect.poll(() => row.locator("img").count(), { timeout: 15_000 }).toBe(3);
    await approveInBackOffice();
    await user.goto("/smauth");
    await expect.poll(() => user.getByTestId("kyc-application-status").textContent()).toBe("Approved");
  });

  it("the user applies for advanced KYC", async () => {
    await user.goto("/authenticationhigh");
    await user.waitForURL(/\/seniorauth$/);
    await user.getByTestId("kyc-occupation").click();
    await user.locator(".ant-select-item-option").filter({ hasText: "Engineer or IT professional" }).click();
    await user.getByTestId("kyc-monthly-income").fill("4000");
    await user.getByTestId("kyc-expected-investment").fill("20000");
    await user.getByTestId("kyc-source-of-wealth").fill("Salary");
    await upload(user, "kyc-asset-bankDeposit");
    await user.getByTestId("kyc-submit").click();
    await expect.poll(() => user.getByTestId("kyc-application-status").textContent()).toBe("Under review");
  });

  it("the questionnaire gives a risk level and its maximum per order", async () => {
    await user.goto("/fengxian");
    await user.waitForURL(/\/questionnaire$/);
    // 2 + 2 + 2 + 0 + 2 = 8 points: balanced (from 6).
    for (const [question, option] of [
      ["accountPurpose", 3],
      ["investmentPurpose", 3],
      ["amountRange", 3],
      ["monthlyTrades", 1],
      ["occupation", 8],
    ] as const) {
      await user.getByTestId(`kyc-q-${question}-${option}`).click();
    }
    await user.getByTestId("kyc-submit").click();
    await expect
      .poll(() => user.getByTestId("kyc-risk-result").textContent())
      .toBe("Your risk level is Balanced");
    await user.goto("/authentication");
    await expect.poll(() => user.getByTestId("kyc-risk-level").textContent()).toContain("Balanced");
  });

  it("the credit score page shows the score, its factors and the loan limit", async () => {
    await user.goto("/xinyongfen");
    await user.waitForURL(/\/credit$/);
    // Base 300 + primary 150; advanced is still under review, the account is new, no loans yet.
    await expect.poll(() => user.getByTestId("kyc-credit-score").textContent()).toBe("450");
    await expect.poll(() => user.getByTestId("kyc-factor-primary").textContent()).toBe("+150");
    await expect.poll(() => user.getByTestId("kyc-factor-advanced").textContent()).toBe("0");
    await expect.poll(() => user.getByTestId("kyc-loan-limit").textContent()).toBe("1,000.00 USDT");
  });

  it(
    "writes screenshots of the verification centre and the credit score (phone, desktop, light, dark, en, zh, ty)",
    async () => {
      const ready = (testId: string) => async (page: Page) => {
        await page.getByTestId(testId).waitFor({ timeout: 30_000 });
        await page.waitForFunction(() => document.documentElement.lang !== "", undefined, { timeout: 5_000 });
      };
      await shootMatrix(platform, {
        folder: "kyc",
        token,
        pages: [
          { name: "verification", path: "/authentication", ready: ready("kyc-risk-level") },
          { name: "credit", path: "/credit", ready: ready("kyc-credit-score") },
        ],
      });
    },
    SCREENSHOT_TEST_TIMEOUT_MS,
  );
});
