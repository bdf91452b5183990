import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInAdmin } from "./operators.ts";
import { type Platform, startPlatform } from "./platform.ts";
import { SCREENSHOT_TEST_TIMEOUT_MS, shootMatrix } from "./screenshot-matrix.ts";
import { registerUser } from "./users.ts";

/*
 * The help centre and banners in the browser: an operator creates a help category, writes a help
 * article beside the live preview of what the server will store (the script and the event handler
 * gone), saves it as a draft and publishes it; a visitor finds it on /help and opens /helpDetail.
 * A banner the operator publishes shows on the home page and opens /bannerDetail. Screenshots go to
 * docs/screenshots/help.
 */
let platform: Platform;
let operator: Page;
let visitor: Page;
let token: string;
let articleId = 0;
let bannerId = 0;

const CATEGORY = "Getting started";
const ARTICLE = "How do I make my first deposit?";
const BANNER = "Welcome to Northstar";

beforeAll(async () => {
  platform = await startPlatform();
  token = await registerUser(platform, `help-${Date.now()}@example.com`, "Secret123");
  operator = await (await platform.newContext({ width: 1400, height: 900 })).newPage();
  visitor = await (await platform.newContext()).newPage();
  await signInAdmin(operator, platform);
});
afterAll(async () => {
  await platform?.close();
});

/** Saves the open editor and waits for the drawer to close. */
async function saveEditor() {
  await operator.getByTestId("admin-content-save").click();
  await operator.getByTestId("admin-content-form").waitFor({ state: "detached" });
}

describe("help centre and banners", () => {
  it("an operator writes a help article with the preview, publishes it, and a visitor reads it", async () => {
    await operator.goto("/admin/content");
    await operator.getByTestId("admin-content-tab-categories").click();
    await operator.getByTestId("admin-category-new").click();
    await operator.getByTestId("admin-category-name-en").fill(CATEGORY);
    await operator.getByTestId("admin-category-name-zh").fill("入门");
    await operator.getByTestId("admin-category-save").click();
    await operator.getByTestId("admin-categories").getByText(CATEGORY).waitFor();

    await operator.getByTestId("admin-content-tab-help").click();
    await operator.getByTestId("admin-content-new").click();
    const form = operator.getByTestId("admin-content-form");
    await form.getByRole("combobox").first().click();
    await operator.locator(".ant-select-item-option", { hasText: CATEGORY }).click();
    // Without an English title the server refuses, and the editor marks the field with its reason.
    await operator.getByTestId("admin-content-save").click();
    await form.getByText("The English title is required").waitFor();
    await operator.getByTestId("admin-content-title-en").fill(ARTICLE);
    await operator
      .getByTestId("admin-content-body-en")
      .fill(
        `<h2>Before you start</h2><p onclick="steal()">Open <b>Assets</b>, then Deposit.</p><script>alert(1)</script><img src="/banners/welcome.svg" alt="" onerror="alert(2)">`,
      );
    // The preview is the server's sanitised text: formatting kept, script and handlers gone.
    const preview = operator.getByTestId("admin-content-preview");
    await preview.getByText("Before you start").waitFor();
    const previewHtml = await preview.innerHTML();
    expect(previewHtml).toContain("<b>Assets</b>");
    expect(previewHtml).not.toMatch(/script|onclick|onerror/);
    await saveEditor();

    // Saved as a draft: listed for the operator, not for visitors.
    const row = operator.locator("tr", { hasText: ARTICLE });
    await row.waitFor();
    articleId = Number(await row.getAttribute("data-row-key"));
    expect(articleId).toBeGreaterThan(0);
    await visitor.goto(`/helpDetail?id=${articleId}`);
    await visitor.getByTestId("help-not-found").waitFor();

    await row.getByTestId("admin-content-toggle").click();
    await expect.poll(() => row.getByTestId("admin-content-toggle").textContent()).toBe("Unpublish");

    await visitor.goto("/help");
    await visitor.getByTestId("help-category").filter({ hasText: CATEGORY }).waitFor();
    await visitor.getByTestId("help-search").fill("first deposit");
    await expect.poll(() => visitor.getByTestId("help-article-link").count()).toBe(1);
    await visitor.getByTestId("help-article-link").filter({ hasText: ARTICLE }).click();
    await visitor.waitForURL(new RegExp(`/helpDetail\\?id=${articleId}$`));
    const body = visitor.getByTestId("help-article-body");
    await body.getByText("Before you start").waitFor();
    expect(await body.locator("script").count()).toBe(0);
    expect(await body.innerHTML()).not.toMatch(/onclick|onerror/);
    expect(await visitor.getByTestId("help-article-category").textContent()).toBe(CATEGORY);
    expect(await visitor.locator("h1, h2, h3, h4").filter({ hasText: ARTICLE }).count()).toBeGreaterThan(0);
  });

  it("a published banner shows on the home page and opens its article", async () => {
    await operator.getByTestId("admin-content-tab-banners").click();
    await operator.getByTestId("admin-banner-new").click();
    await operator.getByTestId("admin-content-image").fill("/banners/welcome.svg");
    await operator.getByTestId("admin-content-title-en").fill(BANNER);
    await operator.getByTestId("admin-content-body-en").fill("<p>Trade with zero fees this week.</p>");
    await operator.getByTestId("admin-content-preview").getByText("zero fees").waitFor();
    await operator.getByTestId("admin-content-published").click();
    await saveEditor();
    const row = operator.getByTestId("admin-banners").locator("tr", { hasText: BANNER });
    await row.waitFor();
    bannerId = Number(await row.getAttribute("data-row-key"));

    await visitor.goto("/");
    const banner = visitor.getByTestId("home-banner").filter({ hasText: BANNER });
    await banner.waitFor();
    await banner.click();
    await visitor.waitForURL(new RegExp(`/bannerDetail\\?id=${bannerId}$`));
    await visitor.getByTestId("banner-body").getByText("zero fees").waitFor();
  });

  it(
    "takes screenshots of the help centre, an article, the banner and the editor",
    async () => {
      expect(articleId).toBeGreaterThan(0);
      await shootMatrix(platform, {
        folder: "help",
        token,
        pages: [
          {
            name: "help",
            path: "/settingHelp",
            ready: (p) => p.getByTestId("help-category").first().waitFor(),
          },
          {
            name: "help-detail",
            path: `/helpDetail?id=${articleId}`,
            ready: (p) => p.getByTestId("help-article-body").waitFor(),
          },
          {
            name: "home-banner",
            path: "/",
            ready: (p) => p.getByTestId("home-banner").first().locator("img").waitFor(),
          },
          {
            name: "banner-detail",
            path: `/bannerDetail?id=${bannerId}`,
            ready: (p) => p.getByTestId("banner-body").waitFor(),
          },
        ],
      });
      const operatorToken = await operator.evaluate(() => sessionStorage.getItem("operatorToken") ?? "");
      await shootMatrix(platform, {
        folder: "help",
        token,
        operatorToken,
        sizes: ["desktop"],
        pages: [
          {
            name: "admin-editor",
            path: "/admin/content",
            ready: async (p) => {
              await p.getByTestId("admin-content-tab-help").click();
              await p.locator("tr", { hasText: ARTICLE }).getByRole("button").first().click();
              await p.getByTestId("admin-content-preview").waitFor();
            },
          },
        ],
      });
    },
    SCREENSHOT_TEST_TIMEOUT_MS * 2,
  );
});
