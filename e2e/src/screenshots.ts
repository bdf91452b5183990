// Takes the screenshots committed under docs/screenshots: every main page at phone (390×844) and
// desktop (1280×800) size, light and dark, in English, Simplified Chinese and Thai, as a funded user
// with a resting order and a trade (visitor pages logged out). Viewport only, so the files stay small.
// Run: pnpm --filter @northstar/e2e screenshots (SHOTS_PAGES=home,trade takes only those pages)
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { MoneyDecimal } from "@northstar/shared/money";
import { screenshotsDir, startPlatform } from "./platform.ts";
import { depositUsdt } from "./spot-funding.ts";
import { registerUser, trpcMutation } from "./users.ts";

const SIZES = [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1280, height: 800 },
] as const;

/** name, path, logged in, the test id that says the page has loaded (per size where they differ). */
const PAGES: [string, string, boolean, string | { phone: string; desktop: string }][] = [
  ["home", "/", true, "home-figure-products"],
  ["markets", "/market?tab=exchange", true, "market-page"],
  ["trade", "/currency?symbol=BTCUSDT", true, { phone: "spot-phone-actions", desktop: "order-submit" }],
  ["assets", "/table1", true, "assets-page"],
  ["deposit", "/authenticationrj", true, "deposit-tab-crypto"],
  ["withdraw", "/authenticationcj", true, "withdraw-records"],
  ["transfer", "/transfer", true, "transfer-tab-transfer"],
  ["records", "/record", true, "records-wallet"],
  ["security", "/security", true, "security-row-login-password"],
  ["profile", "/info", true, "profile-uid"],
  ["login", "/login", false, "login-submit"],
  ["register", "/register", false, "register-submit"],
];

const only = process.env.SHOTS_PAGES?.split(",").filter(Boolean);
const pages = only ? PAGES.filter(([name]) => only.includes(name)) : PAGES;

const platform = await startPlatform();
const out = screenshotsDir();
mkdirSync(out, { recursive: true });

try {
  await platform.admin("deposit-address:set", "USDT", "ERC20", `0x${"ab".repeat(20)}`);
  const token = await registerUser(platform, `shots-${Date.now()}@example.com`, "Secret123");
  await depositUsdt(platform, token, "10000");

  // Once the market maker quotes, rest a bid under the market and buy a little at market.
  let last = "";
  for (let i = 0; i < 60 && !last; i++) {
    const res = await fetch(
      `${platform.baseUrl}/trpc/market.instrument?input=${encodeURIComponent('{"symbol":"BTCUSDT"}')}`,
    );
    const body = (await res.json()) as { result?: { data?: { ticker?: { p: string } | null } } };
    last = body.result?.data?.ticker?.p ?? "";
    if (!last) {
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
  await new Promise((r) => setTimeout(r, 3000));
  const below = new MoneyDecimal(last).times("0.997").toDecimalPlaces(2, MoneyDecimal.ROUND_DOWN).toFixed(2);
  const order = { symbol: "BTCUSDT", side: "buy" } as const;
  await trpcMutation(platform, token, "spot.place", {
    ...order,
    type: "limit",
    price: below,
    quantity: "0.015",
  });
  await trpcMutation(platform, token, "spot.place", { ...order, type: "market", quantity: "0.004" });

  for (const lang of ["en", "zh", "ty"]) {
    for (const theme of ["light", "dark"]) {
      for (const size of SIZES) {
        const context = await platform.newContext({ width: size.width, height: size.height });
        for (const [name, path, loggedIn, ready] of pages) {
          await context.clearCookies();
          const page = await context.newPage();
          await page.addInitScript(
            ([l, t, tok]) => {
              localStorage.setItem("lang", l);
              localStorage.setItem("theme", t);
              if (tok) {
                localStorage.setItem("token", tok);
              } else {
                localStorage.removeItem("token");
              }
            },
            [lang, theme, loggedIn ? token : ""] as const,
          );
          await page.goto(path);
          const id = typeof ready === "string" ? ready : ready[size.name];
          await page.getByTestId(id).first().waitFor({ timeout: 30_000 });
          // Let lazy parts and skeletons settle; a page that keeps one (a live feed) is shot anyway.
          await page
            .waitForFunction(() => document.querySelectorAll(".ant-skeleton").length === 0, undefined, {
              timeout: 5_000,
            })
            .catch(() => undefined);
          await page.waitForTimeout(700);
          await page.screenshot({ path: join(out, `${name}-${lang}-${theme}-${size.name}.png`) });
          await page.close();
        }
        await context.close();
      }
    }
  }
} finally {
  await platform.close();
}
console.log(`screenshots written to ${out}`);
