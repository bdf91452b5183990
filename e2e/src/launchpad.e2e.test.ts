import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInAdmin } from "./operators.ts";
import { type Platform, startPlatform } from "./platform.ts";
import { SCREENSHOT_TEST_TIMEOUT_MS, shootMatrix } from "./screenshot-matrix.ts";
import { depositUsdt } from "./spot-funding.ts";
import { confirmModal, pageAs, registerUser } from "./users.ts";

/*
 * New-coin subscription in the browser: a funded user subscribes to an open offering after the
 * confirmation and sees it reviewing with the amount frozen; once the window has closed the
 * operator runs the allocation (`pnpm admin launchpad:allocate`) and the record shows what passed.
 * Screenshots go to docs/screenshots/launchpad.
 */
let platform: Platform;
let user: Page;
let token: string;
let secondToken: string;
let offeringId = "";
let closesAt = 0;

beforeAll(async () => {
  platform = await startPlatform();
  await platform.admin("deposit-address:set", "USDT", "ERC20", `0x${"ab".repeat(20)}`);
  token = await registerUser(platform, `launch-${Date.now()}@example.com`, "Secret123");
  await depositUsdt(platform, token, "1000");
  secondToken = await registerUser(platform, `launch2-${Date.now()}@example.com`, "Secret123");
  await depositUsdt(platform, secondToken, "500");
  closesAt = Date.now() + 60_000;
  const created = await platform.admin(
    "launchpad:create",
    JSON.stringify({
      coin: "NOVA",
      name: "Nova Network",
      pay_currency: "USDT",
      issue_price: "0.12",
      subscribe_price: "0.1",
      total_quantity: "1000000",
      min_quantity: "100",
      max_quantity: "50000",
      starts_at: new Date(Date.now() - 3_600_000).toISOString(),
      ends_at: new Date(closesAt).toISOString(),
      lock_days: 30,
      listing_day: "2027-01-15",
      circulation: "50000000",
    }),
  );
  offeringId = String((JSON.parse(created) as { id: number }).id);
  user = await pageAs(platform, token);
});
afterAll(async () => {
  await platform?.close();
});

describe("new-coin subscription in the browser", () => {
  it("subscribes after the confirmation and sees the record reviewing with the amount frozen", async () => {
    await user.goto("/subscription");
    const card = user.getByTestId("launchpad-offering").filter({ hasText: "NOVA" });
    await card.waitFor();
    await card.getByTestId("launchpad-quantity").fill("2500");
    await expect.poll(() => card.getByTestId("launchpad-amount").textContent()).toBe("250.00 USDT");
    await card.getByTestId("launchpad-subscribe").click();
    // Through the helper that presses a confirmation whose click a loaded machine did not take.
    await confirmModal(user, "launchpad-subscribe-confirm");
    // The record page, or the refusal the page showed instead (named, so a failure says why).
    const refusal = user.locator(".ant-message-warning, .ant-modal-confirm");
    await Promise.race([
      user.waitForURL(/\/subscriptionRecord/),
      refusal.waitFor().then(async () => {
        throw new Error(`the subscription was refused: ${await refusal.textContent()}`);
      }),
    ]);
    const record = user.getByTestId("launchpad-record").first();
    await record.waitFor();
    expect(await record.getAttribute("data-status")).toBe("reviewing");
    expect(await record.getByTestId("launchpad-record-frozen").textContent()).toBe("250.00 USDT");
  });

  it("the operator rejects a second user's subscription in the back office; that user sees why, nothing frozen", async () => {
    const second = await pageAs(platform, secondToken);
    await second.goto("/subscription");
    const card = second.getByTestId("launchpad-offering").filter({ hasText: "NOVA" });
    await card.getByTestId("launchpad-quantity").fill("1000");
    await card.getByTestId("launchpad-subscribe").click();
    await confirmModal(second, "launchpad-subscribe-confirm");
    await second.waitForURL(/\/subscriptionRecord/);
    const record = second.getByTestId("launchpad-record").first();
    await record.waitFor();
    const id = await record.getAttribute("data-id");

    const operator = await (await platform.newContext()).newPage();
    await signInAdmin(operator, platform);
    await operator.waitForURL(/\/admin(?!\/login)/);
    await operator.goto("/admin/launchpad");
    await operator.locator(`tr[data-row-key="${offeringId}"] .ant-table-row-expand-icon`).click();
    await operator.getByTestId(`launchpad-sub-reject-${id}`).click();
    await operator.getByTestId("admin-reject-reason").fill("Identity check failed");
    await confirmModal(operator, "admin-confirm-ok");
    await operator.getByTestId(`launchpad-sub-reject-${id}`).waitFor({ state: "detached" });

    await second.reload();
    await expect
      .poll(() => second.getByTestId("launchpad-record").first().getAttribute("data-status"))
      .toBe("failed");
    await second.getByText("Identity check failed").waitFor();
    expect(await second.getByTestId("launchpad-record-frozen").first().textContent()).toBe("0.00 USDT");
    await second.context().close();
  });

  it("shows the allocation once the operator has run it after the close", async () => {
    // The window closes a minute after it opened; the allocation is refused before that.
    await expect
      .poll(
        async () => {
          try {
            await platform.admin("launchpad:allocate", offeringId);
            return true;
          } catch {
            return false;
          }
        },
        { timeout: Math.max(5_000, closesAt - Date.now() + 30_000), interval: 2_000 },
      )
      .toBe(true);
    await user.reload();
    const record = user.getByTestId("launchpad-record").first();
    await expect.poll(() => record.getAttribute("data-status"), { timeout: 10_000 }).toBe("passed");
    expect(await record.getByTestId("launchpad-record-passed").textContent()).toBe("2,500 NOVA");
    expect(await record.getByTestId("launchpad-record-frozen").textContent()).toBe("0.00 USDT");
  });

  it(
    "takes screenshots of the subscription pages",
    async () => {
      const first = (testId: string) => (page: Page) => page.getByTestId(testId).first().waitFor();
      await shootMatrix(platform, {
        folder: "launchpad",
        token,
        pages: [
          { name: "subscription", path: "/subscription", ready: first("launchpad-offering") },
          { name: "records", path: "/subscriptionRecord", ready: first("launchpad-record") },
        ],
      });
    },
    SCREENSHOT_TEST_TIMEOUT_MS,
  );
});
