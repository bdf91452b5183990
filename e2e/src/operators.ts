import { authenticator } from "otplib";
import type { Page } from "playwright-core";
import type { Platform } from "./platform.ts";

/**
 * Signing into the back office as the seeded "admin", the way an administrator does: the first
 * sign-in on a platform leads to two-factor enrolment (the helper reads the key shown under the QR
 * code, as one would type it into an authenticator app); later sign-ins give a code. A code is
 * accepted once, so each sign-in uses a step newer than the last one used on this platform.
 */
const enrolled = new WeakMap<Platform, { secret: string; lastStep: number }>();
const STEP_MS = 30_000;

async function nextCode(platform: Platform): Promise<string> {
  const state = enrolled.get(platform);
  if (!state) {
    throw new Error("the admin has not enrolled yet");
  }
  const now = Math.floor(Date.now() / STEP_MS);
  const step = Math.max(now, state.lastStep + 1);
  // The server accepts the next step too; anything further waits for the clock.
  if (step > now + 1) {
    await new Promise((r) => setTimeout(r, (step - 1) * STEP_MS - Date.now() + 50));
  }
  state.lastStep = step;
  return authenticator.clone({ epoch: step * STEP_MS }).generate(state.secret);
}

export async function signInAdmin(page: Page, platform: Platform): Promise<void> {
  await page.goto("/admin/login");
  await page.getByTestId("admin-login-username").fill("admin");
  await page.getByTestId("admin-login-password").fill(platform.operatorPassword);
  if (enrolled.has(platform)) {
    await page.getByTestId("admin-login-submit").click();
    await page.getByTestId("admin-login-code").fill(await nextCode(platform));
    await page.getByTestId("admin-login-submit").click();
    await page.waitForURL(/\/admin(?!\/login)/);
    return;
  }
  await page.getByTestId("admin-login-submit").click();
  await page.waitForURL(/\/admin\/security/);
  await page.getByTestId("admin-2fa-start").click();
  const secret = ((await page.getByTestId("admin-2fa-secret").textContent()) ?? "").trim();
  const step = Math.floor(Date.now() / STEP_MS);
  enrolled.set(platform, { secret, lastStep: step });
  await page
    .getByTestId("admin-2fa-code")
    .fill(authenticator.clone({ epoch: step * STEP_MS }).generate(secret));
  await page.getByTestId("admin-2fa-confirm").click();
  // Either the enrolment shows as done or the page says why the code was refused.
  const outcome = page.getByTestId("admin-2fa-on").or(page.getByTestId("admin-2fa-error"));
  await outcome.waitFor();
  if ((await outcome.getAttribute("data-testid")) !== "admin-2fa-on") {
    throw new Error(`enrolment refused: ${await outcome.textContent()}`);
  }
  await page.goto("/admin");
  await page.waitForURL(/\/admin\/(?!login|security)/);
}
