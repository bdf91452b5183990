import { randomBytes } from "node:crypto";
import type { Page } from "playwright-core";
import type { Platform } from "./platform.ts";

/** Registers a user through the legacy API (the browser flow itself is tested in account.e2e). */
export async function registerUser(platform: Platform, email: string, password: string): Promise<string> {
  const call = async (name: string, fields: Record<string, string>) => {
    const res = await fetch(`${platform.baseUrl}/web/${name}`, {
      method: "POST",
      body: new URLSearchParams(fields),
    });
    const body = (await res.json()) as { code: number; message: string; data: { token: string } };
    if (body.code !== 0) {
      throw new Error(`${name}: ${body.message}`);
    }
    return body.data;
  };
  await call("getCode", { type: "email", account: email, purpose: "register" });
  const code = await platform.mailbox.waitForCode(email);
  const { token } = await call("userRegister", {
    type: "email",
    account: email,
    password,
    confirm_password: password,
    code,
    nationality: "SG",
    agree: "1",
  });
  return token;
}

/**
 * Calls a tRPC mutation as the user, with a fresh Idempotency-Key as the web sends one with every
 * money action (the API refuses a money action without one).
 */
export async function trpcMutation(
  platform: Platform,
  token: string,
  path: string,
  input: unknown,
): Promise<unknown> {
  const res = await fetch(`${platform.baseUrl}/trpc/${path}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      authorization: `Bearer ${token}`,
      "idempotency-key": randomBytes(12).toString("base64url"),
    },
    body: JSON.stringify(input),
  });
  if (!res.ok) {
    throw new Error(`${path}: HTTP ${res.status} ${await res.text()}`);
  }
  return res.json();
}

/** A browser page signed in as the user whose session token is `token` (set before any script runs). */
export async function pageAs(
  platform: Platform,
  token: string,
  viewport?: { width: number; height: number },
): Promise<Page> {
  const context = await platform.newContext(viewport);
  await context.addInitScript((t) => localStorage.setItem("token", t), token);
  return context.newPage();
}

/**
 * Confirms a confirmation dialog (ConfirmModal) by its OK button's test id and waits for it to
 * close. The button is clicked once it is ready (not loading). On a loaded machine such a click is
 * now and then not taken (seen in CI; the cause is not known): if after 5 s no request left the page
 * and the button is still there and ready, it is pressed with the keyboard instead, with a warning in
 * the log. A click that was taken is never repeated.
 */
export async function confirmModal(page: Page, testId: string): Promise<void> {
  const ready = page.locator(`[data-testid="${testId}"]:not([data-ready="false"])`);
  let sent = 0;
  const count = (request: { method(): string }) => {
    if (request.method() === "POST") {
      sent++;
    }
  };
  page.on("request", count);
  try {
    await ready.click();
    const closed = await page
      .getByTestId(testId)
      .waitFor({ state: "hidden", timeout: 5_000 })
      .then(() => true)
      .catch(() => false);
    if (!closed && sent === 0 && (await ready.isVisible())) {
      console.warn(`confirmModal(${testId}): the click was not taken; pressing Enter`);
      await ready.press("Enter");
    }
    await page.getByTestId(testId).waitFor({ state: "hidden", timeout: 15_000 });
  } finally {
    page.off("request", count);
  }
}

// A 1×1 PNG, the smallest photo the server accepts by content.
export const PHOTO_PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);

/** Uploads a small photo as the user (for proofs and ID photos) and returns its upload id. */
export async function uploadPhoto(platform: Platform, token: string): Promise<string> {
  const form = new FormData();
  form.append("file", new Blob([PHOTO_PNG], { type: "image/png" }), "photo.png");
  const res = await fetch(`${platform.baseUrl}/uploads/proof`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  return ((await res.json()) as { data: { id: string } }).data.id;
}
