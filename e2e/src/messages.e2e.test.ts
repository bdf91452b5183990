import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInAdmin } from "./operators.ts";
import { type Platform, startPlatform } from "./platform.ts";
import { SCREENSHOT_TEST_TIMEOUT_MS, shootMatrix } from "./screenshot-matrix.ts";
import { pageAs, registerUser, trpcMutation, uploadPhoto } from "./users.ts";

/*
 * Messages and customer service in the browser: the header's unread bell changes live when a KYC
 * decision (through the back office's API) adds a message, and reading it on /notice clears it; a user writes on
 * /service, an operator answers in the back office's console, and the reply shows on the user's open
 * page without a reload. Screenshots of /service and the messages tab go to docs/screenshots/messages.
 */
let platform: Platform;
let user: Page;
let token: string;

/** Where the back office keeps its session token (apps/web/src/features/admin/operator-session.ts). */
const OPERATOR_TOKEN_KEY = "operatorToken";

/** Calls a back-office procedure over HTTP with the operator's header. */
async function adminCall(path: string, input: unknown, opToken?: string, method: "GET" | "POST" = "POST") {
  const headers: Record<string, string> = opToken ? { "x-operator-token": opToken } : {};
  const url =
    method === "GET"
      ? `${platform.baseUrl}/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`
      : `${platform.baseUrl}/trpc/${path}`;
  const res = await fetch(url, {
    method,
    headers: method === "POST" ? { ...headers, "content-type": "application/json" } : headers,
    body: method === "POST" ? JSON.stringify(input) : undefined,
  });
  if (!res.ok) {
    throw new Error(`${path}: HTTP ${res.status} ${await res.text()}`);
  }
  return res.json();
}

beforeAll(async () => {
  platform = await startPlatform();
  token = await registerUser(platform, `messages-${Date.now()}@example.com`, "Secret123");
  await trpcMutation(platform, token, "kyc.applyPrimary", {
    document_type: 2,
    real_name: "Ada Lovelace",
    document_number: "X7654321",
    front_upload_id: await uploadPhoto(platform, token),
    back_upload_id: await uploadPhoto(platform, token),
    handheld_upload_id: await uploadPhoto(platform, token),
  });
  user = await pageAs(platform, token);
});
afterAll(async () => {
  await platform?.close();
});

describe("messages and customer service in the browser", () => {
  it("the unread bell updates live when a decision adds a message, and reading it clears it", async () => {
    await user.goto("/service");
    const bell = user.getByTestId("message-badge");
    await bell.waitFor();
    expect(await bell.getAttribute("data-unread")).toBe("0");
    // A compliance decision through the back office's API: it adds the message and nudges the socket.
    // The administrator signs in as in the back office (two-factor); its session's token calls the API.
    const operator = await (await platform.newContext()).newPage();
    await signInAdmin(operator, platform);
    const opToken = await operator.evaluate((key) => sessionStorage.getItem(key) ?? "", OPERATOR_TOKEN_KEY);
    expect(opToken).not.toBe("");
    const queue = await adminCall("admin.kyc.queue", { status: "under_review" }, opToken, "GET");
    const [application] = (queue as { result: { data: { id: number }[] } }).result.data;
    await adminCall("admin.kyc.approve", { id: application?.id }, opToken);
    await expect.poll(() => bell.getAttribute("data-unread"), { timeout: 15_000 }).toBe("1");

    await bell.click();
    await user.waitForURL(/\/notice\?tab=messages/);
    const item = user.getByTestId("message-item").first();
    await item.waitFor();
    expect(await item.getAttribute("data-read")).toBe("false");
    await item.click();
    await expect.poll(() => item.getAttribute("data-read")).toBe("true");
    await expect.poll(() => bell.getAttribute("data-unread")).toBe("0");
  }, 150_000);

  it("a user writes on /service, an operator answers in the back office, the user sees it live", async () => {
    await user.goto("/service");
    await user.getByTestId("service-input").fill("Hello, where is my deposit?");
    await user.getByTestId("service-send").click();
    await expect.poll(() => user.locator('[data-testid="chat-line"][data-author="user"]').count()).toBe(1);

    const operator = await (await platform.newContext()).newPage();
    await signInAdmin(operator, platform);
    await operator.goto("/admin/support");
    const conversation = operator.getByTestId("support-conversation").first();
    await conversation.waitFor({ timeout: 15_000 });
    await conversation.click();
    await expect
      .poll(() => operator.getByTestId("support-history").textContent())
      .toContain("Hello, where is my deposit?");
    await operator.getByTestId("support-reply-input").fill("It has arrived, please check again.");
    await operator.getByTestId("support-reply-send").click();

    // No reload on the user's side: the reply arrives over the socket.
    await expect
      .poll(() => user.locator('[data-testid="chat-line"][data-author="operator"]').count(), {
        timeout: 15_000,
      })
      .toBe(1);
    expect(await user.getByTestId("service-log").textContent()).toContain(
      "It has arrived, please check again.",
    );

    // The user writes again with the console open: it shows there live too.
    await user.getByTestId("service-input").fill("Thank you!");
    await user.getByTestId("service-send").click();
    await expect
      .poll(() => operator.getByTestId("support-history").textContent(), { timeout: 15_000 })
      .toContain("Thank you!");
  }, 150_000);

  it(
    "takes screenshots of /service and the messages tab",
    async () => {
      await shootMatrix(platform, {
        folder: "messages",
        token,
        pages: [
          {
            name: "service",
            path: "/service",
            ready: (page) =>
              page.locator('[data-testid="chat-line"][data-author="operator"]').first().waitFor(),
          },
          {
            name: "messages",
            path: "/notice?tab=messages",
            ready: (page) => page.getByTestId("message-item").first().waitFor(),
          },
        ],
      });
    },
    SCREENSHOT_TEST_TIMEOUT_MS,
  );
});
