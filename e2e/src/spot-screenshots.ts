// Takes the screenshots of /currencyRecord under docs/screenshots, light and dark, in English,
// Simplified Chinese and Thai, for a user with a resting order and a trade. The trade screen itself, at
// phone and desktop size, is among the main pages of screenshots.ts.
// Run: pnpm --filter @northstar/e2e exec tsx src/spot-screenshots.ts
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { MoneyDecimal } from "@northstar/shared/money";
import { screenshotsDir, startPlatform } from "./platform.ts";
import { depositUsdt } from "./spot-funding.ts";
import { registerUser, trpcMutation } from "./users.ts";

const platform = await startPlatform();
const out = screenshotsDir();
mkdirSync(out, { recursive: true });

try {
  await platform.admin("deposit-address:set", "USDT", "ERC20", `0x${"ab".repeat(20)}`);
  const token = await registerUser(platform, `spot-shots-${Date.now()}@example.com`, "Secret123");
  await depositUsdt(platform, token, "10000");

  // Wait for the market maker's book, then rest a bid under it and buy a little at market.
  let bestBid = "";
  for (let i = 0; i < 60 && !bestBid; i++) {
    const res = await fetch(
      `${platform.baseUrl}/trpc/market.instrument?input=${encodeURIComponent('{"symbol":"BTCUSDT"}')}`,
    );
    const body = (await res.json()) as { result?: { data?: { ticker?: { p: string } | null } } };
    bestBid = body.result?.data?.ticker?.p ?? "";
    if (!bestBid) {
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
  await new Promise((r) => setTimeout(r, 3000));
  const below = new MoneyDecimal(bestBid)
    .times("0.997")
    .toDecimalPlaces(2, MoneyDecimal.ROUND_DOWN)
    .toFixed(2);
  await trpcMutation(platform, token, "spot.place", {
    symbol: "BTCUSDT",
    side: "buy",
    type: "limit",
    price: below,
    quantity: "0.015",
  });
  await trpcMutation(platform, token, "spot.place", {
    symbol: "BTCUSDT",
    side: "buy",
    type: "market",
    quantity: "0.004",
  });
  await new Promise((r) => setTimeout(r, 2000));

  for (const lang of ["en", "zh", "ty"]) {
    for (const theme of ["light", "dark"]) {
      for (const [name, path, ready] of [
        ["spot-record", "/currencyRecord?tab=history", "orders-history"],
      ] as const) {
        const context = await platform.newContext({ width: 1440, height: 900 });
        await context.addInitScript(
          ([l, t, tok]) => {
            localStorage.setItem("lang", l);
            localStorage.setItem("theme", t);
            localStorage.setItem("token", tok);
          },
          [lang, theme, token] as const,
        );
        const page = await context.newPage();
        await page.goto(path);
        await page.getByTestId(ready).waitFor({ timeout: 30_000 });
        await page.waitForTimeout(2500);
        await page.screenshot({ path: join(out, `${name}-${lang}-${theme}.png`), fullPage: true });
        await context.close();
      }
    }
  }
} finally {
  await platform.close();
}
console.log(`screenshots written to ${out}`);
