import pg from "pg";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Platform, startPlatform } from "./platform.ts";
import { SCREENSHOT_TEST_TIMEOUT_MS, shootMatrix } from "./screenshot-matrix.ts";
import { pageAs, registerUser } from "./users.ts";

/*
 * Referrals and the 7-day sign-in in the browser: a friend registers through the inviter's link
 * and shows at level 1 on the inviter's /invite; the inviter signs in on 7 days, a day passing on
 * the test clock by moving the last sign-in to the day before; screenshots of /invite and /benefits
 * go to docs/screenshots/referral.
 */
let platform: Platform;
let inviter: Page;
let token: string;

beforeAll(async () => {
  platform = await startPlatform();
  token = await registerUser(platform, `inviter-${Date.now()}@example.com`, "Secret123");
  inviter = await pageAs(platform, token);
});
afterAll(async () => {
  await platform?.close();
});

describe("referrals and the sign-in in the browser", () => {
  it("a friend registering through the invite link shows at level 1 on the inviter's page", async () => {
    await inviter.goto("/invite");
    const link = (await inviter.getByTestId("invite-link").textContent()) ?? "";
    const code = (await inviter.getByTestId("invite-code").textContent()) ?? "";
    expect(link).toContain(`/register?code=${code}`);
    await inviter.getByTestId("invite-qr").waitFor();
    expect(await inviter.getByTestId("invite-level-1-count").textContent()).toBe("0");

    const friend = await (await platform.newContext()).newPage();
    const email = `friend-${Date.now()}@example.com`;
    const url = new URL(link);
    await friend.goto(`${url.pathname}${url.search}`);
    await friend.getByTestId("register-tab-email").click();
    await friend.getByTestId("register-email").fill(email);
    await friend.getByTestId("send-code").click();
    await friend.getByTestId("register-code").fill(await platform.mailbox.waitForCode(email));
    await friend.getByTestId("register-password").fill("Secret123");
    await friend.getByTestId("register-confirm").fill("Secret123");
    await friend.getByTestId("register-nationality").click();
    await friend.keyboard.type("United Kingdom");
    await friend.keyboard.press("Enter");
    await friend.getByTestId("register-agree").check();
    await friend.getByTestId("register-submit").click();
    await friend.getByTestId("user-menu").waitFor();
    await friend.context().close();

    await inviter.reload();
    await expect
      .poll(() => inviter.getByTestId("invite-level-1-count").textContent(), { timeout: 15_000 })
      .toBe("1");
    expect(await inviter.getByTestId("invite-level-2-count").textContent()).toBe("0");
  });

  it("says the sign-in is not running while the fresh platform's budget is empty, then runs once funded", async () => {
    await inviter.goto("/benefitsDetail");
    await inviter.getByTestId("sign-in-paused").waitFor();
    expect(await inviter.getByTestId("sign-in-claim").isDisabled()).toBe(true);
    await platform.admin("rewards:budget:fund", "USDT", "100");
    await inviter.reload();
    await expect.poll(() => inviter.getByTestId("sign-in-claim").isEnabled(), { timeout: 15_000 }).toBe(true);
    expect(await inviter.getByTestId("sign-in-paused").count()).toBe(0);
  });

  it("signs in on 7 days on a test clock and is paid each day's reward once", async () => {
    const db = new pg.Client({ connectionString: platform.databaseUrl });
    await db.connect();
    try {
      for (let day = 1; day <= 7; day++) {
        await inviter.goto("/benefitsDetail");
        const claim = inviter.getByTestId("sign-in-claim");
        await expect.poll(() => claim.isEnabled(), { timeout: 15_000 }).toBe(true);
        await claim.click();
        await expect
          .poll(() => inviter.getByTestId(`sign-in-day-${day}`).getAttribute("data-signed"), {
            timeout: 15_000,
          })
          .toBe("yes");
        await expect.poll(() => claim.isDisabled(), { timeout: 15_000 }).toBe(true);
        // A day passes: the sign-ins so far are moved one day back, as if made a day earlier.
        await db.query(
          "update sign_in_profiles set last_claim_date = last_claim_date - 1; update sign_in_claims set local_date = local_date - 1",
        );
      }
    } finally {
      await db.end();
    }
    await inviter.goto("/benefitsDetail");
    // After day 7 a new cycle begins: today offers day 1 again, nothing signed.
    await expect
      .poll(() => inviter.getByTestId("sign-in-day-7").getAttribute("data-signed"), { timeout: 15_000 })
      .toBe("no");
    expect(await inviter.getByTestId("sign-in-claim-row").count()).toBe(7);
    // 0.1 + 0.1 + 0.2 + 0.2 + 0.3 + 0.5 + 1 USDT from the budget of 100.
    const budget = JSON.parse(await platform.admin("rewards:budget")) as {
      currency: string;
      balance: string;
    }[];
    expect(budget.find((b) => b.currency === "USDT")?.balance).toBe("97.6");
    await expect(platform.admin("reconcile")).resolves.toContain("ledger balances");
  });

  it(
    "takes screenshots of the invitation page and the reward centre",
    async () => {
      await shootMatrix(platform, {
        folder: "referral",
        token,
        pages: [
          { name: "invite", path: "/invite", ready: (page) => page.getByTestId("invite-qr").waitFor() },
          { name: "benefits", path: "/benefits", ready: (page) => page.getByTestId("task-invite").waitFor() },
        ],
      });
    },
    SCREENSHOT_TEST_TIMEOUT_MS,
  );
});
