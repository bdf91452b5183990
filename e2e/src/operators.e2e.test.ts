import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInAdmin } from "./operators.ts";
import { type Platform, startPlatform } from "./platform.ts";
import { SCREENSHOT_TEST_TIMEOUT_MS, shootMatrix } from "./screenshot-matrix.ts";
import { confirmModal } from "./users.ts";

/*
 * Operators in the browser: the administrator's first sign-in leads to two-factor enrolment (QR code
 * and key), later sign-ins ask for a code; a finance operator added with `pnpm admin operator:add`
 * sees only enrolment until enrolled; the security page lists sessions and the operator's own
 * actions. Screenshots go to docs/screenshots/operators.
 */
let platform: Platform;
let admin: Page;

beforeAll(async () => {
  platform = await startPlatform();
  admin = await (await platform.newContext()).newPage();
});
afterAll(async () => {
  await platform?.close();
});

describe("operators", () => {
  it("enrols the administrator at first sign-in, then asks for a code; the security page shows sessions and own actions", async () => {
    const visited: string[] = [];
    admin.on("framenavigated", (frame) => visited.push(new URL(frame.url()).pathname));
    await signInAdmin(admin, platform);
    await admin.getByTestId("admin-nav-deposits").waitFor();
    // The sign-in leads to enrolment once: a second navigation would remount the enrolment card
    // under the operator's hands.
    expect(visited.filter((p) => p === "/admin/security")).toHaveLength(1);
    await admin.getByTestId("admin-logout").click();
    await admin.waitForURL(/\/admin\/login/);
    // The second sign-in needs the code; the helper gives the next one.
    await signInAdmin(admin, platform);
    await admin.goto("/admin/security");
    await admin.getByTestId("admin-2fa-on").waitFor();
    await admin.locator('[data-testid="admin-sessions"] .ant-table-row').first().waitFor();
    // The first session was ended by signing out: only this one is live.
    expect(await admin.locator('[data-testid="admin-sessions"] .ant-table-row').count()).toBe(1);
    await expect
      .poll(() => admin.getByTestId("admin-my-actions").textContent())
      .toContain("operator.totp_enrolled");
  });

  it("keeps a new finance operator on enrolment until enrolled", async () => {
    const out = await platform.admin("operator:add", "fin-one", "finance");
    const password = /password: (\S+)/.exec(out)?.[1] ?? "";
    const page = await (await platform.newContext()).newPage();
    await page.goto("/admin/login");
    await page.getByTestId("admin-login-username").fill("fin-one");
    await page.getByTestId("admin-login-password").fill(password);
    await page.getByTestId("admin-login-submit").click();
    await page.waitForURL(/\/admin\/security/);
    await page.getByTestId("admin-enrol-required").waitFor();
    expect(await page.getByTestId("admin-nav-deposits").count()).toBe(0);
    await page.goto("/admin/deposits");
    await page.waitForURL(/\/admin\/security/);
    await page.getByTestId("admin-2fa-start").click();
    await page.getByTestId("admin-2fa-qr").waitFor();
    await page.getByTestId("admin-2fa-code").fill("000000");
    await page.getByTestId("admin-2fa-confirm").click();
    await page.getByTestId("admin-2fa-error").waitFor();
    await page.context().close();
  });

  it("the administrator adds a content operator on the operators page, who signs in; disabled, they cannot", async () => {
    await admin.goto("/admin/operators");
    await admin.getByTestId("admin-operator-admin").waitFor();
    await admin.getByTestId("admin-operator-add").click();
    // A name the server would refuse is refused in the form, and nothing is added.
    await admin.getByTestId("admin-operator-username").fill("no spaces allowed");
    await admin.getByTestId("admin-operator-add-submit").click();
    await admin.locator(".ant-form-item-explain-error").getByText("Username is not valid").waitFor();
    await admin.getByTestId("admin-operator-username").fill("writer-one");
    await admin.getByTestId("admin-operator-new-role").click();
    await admin.locator(".ant-select-item-option", { hasText: "Content" }).click();
    await admin.getByTestId("admin-operator-add-submit").click();
    const password = ((await admin.getByTestId("admin-operator-password").textContent()) ?? "").trim();
    expect(password.length).toBeGreaterThanOrEqual(12);
    await admin.getByTestId("admin-operator-added-close").click();
    await admin.getByTestId("admin-operator-writer-one").waitFor();

    const signIn = async () => {
      const page = await (await platform.newContext()).newPage();
      await page.goto("/admin/login");
      await page.getByTestId("admin-login-username").fill("writer-one");
      await page.getByTestId("admin-login-password").fill(password);
      await page.getByTestId("admin-login-submit").click();
      return page;
    };
    // The content role signs in without two-factor and sees only its pages.
    const writer = await signIn();
    await writer.waitForURL(/\/admin\/(?!login|security)/);
    expect(await writer.getByTestId("admin-nav-operators").count()).toBe(0);

    await admin.getByTestId("admin-operator-toggle-writer-one").click();
    await confirmModal(admin, "admin-confirm-ok");
    await expect
      .poll(() => admin.getByTestId("admin-operator-status-writer-one").textContent())
      .toBe("Disabled");
    // Disabling ended the open session, and a new sign-in is refused.
    await writer.reload();
    await writer.waitForURL(/\/admin\/login/);
    const again = await signIn();
    await again.locator(".ant-alert-error").waitFor();
    expect(again.url()).toContain("/admin/login");
    await writer.context().close();
    await again.context().close();
  });

  it(
    "takes screenshots of the security page",
    async () => {
      const operatorToken = await admin.evaluate(() => sessionStorage.getItem("operatorToken") ?? "");
      expect(operatorToken).not.toBe("");
      await shootMatrix(platform, {
        folder: "operators",
        token: "",
        operatorToken,
        sizes: ["desktop"],
        pages: [
          {
            name: "security",
            path: "/admin/security",
            ready: async (page) => {
              await page.getByTestId("admin-2fa-on").waitFor({ timeout: 60_000 });
              await page
                .locator('[data-testid="admin-my-actions"] .ant-table-row')
                .first()
                .waitFor({ timeout: 60_000 });
            },
          },
          {
            name: "operators",
            path: "/admin/operators",
            ready: async (page) => {
              await page.getByTestId("admin-operator-writer-one").waitFor({ timeout: 60_000 });
            },
          },
        ],
      });
    },
    SCREENSHOT_TEST_TIMEOUT_MS,
  );
});
