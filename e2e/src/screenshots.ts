// Takes the screenshots committed under docs/screenshots: login, register and security centre,
// light and dark, in English, Simplified Chinese and Thai. Run: pnpm --filter @northstar/e2e screenshots
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { ROOT, startPlatform } from "./platform.ts";

const platform = await startPlatform();
const out = join(ROOT, "docs/screenshots");
mkdirSync(out, { recursive: true });

// A logged-in user for the security centre.
const email = `shots-${Date.now()}@example.com`;
const ask = (name: string, fields: Record<string, string>) =>
  fetch(`${platform.baseUrl}/web/${name}`, { method: "POST", body: new URLSearchParams(fields) }).then(
    (r) => r.json() as Promise<{ code: number; data: { token: string } }>,
  );
await ask("getCode", { type: "email", account: email, purpose: "register" });
const code = await platform.mailbox.waitForCode(email);
const { data } = await ask("userRegister", {
  type: "email",
  account: email,
  password: "Secret123",
  confirm_password: "Secret123",
  code,
  nationality: "TH",
  agree: "1",
});

try {
  for (const lang of ["en", "zh", "ty"]) {
    for (const theme of ["light", "dark"]) {
      for (const [name, path, loggedIn, ready] of [
        ["login", "/login", false, "login-submit"],
        ["register", "/register", false, "register-submit"],
        ["security", "/security", true, "security-row-login-password"],
      ] as const) {
        const context = await platform.newContext({ width: 1280, height: 900 });
        await context.addInitScript(
          ([l, t, tok]) => {
            localStorage.setItem("lang", l);
            localStorage.setItem("theme", t);
            if (tok) {
              localStorage.setItem("token", tok);
            }
          },
          [lang, theme, loggedIn ? data.token : ""] as const,
        );
        const page = await context.newPage();
        await page.goto(path);
        await page.getByTestId(ready).waitFor();
        await page.waitForLoadState("networkidle");
        await page.waitForTimeout(300);
        await page.screenshot({ path: join(out, `${name}-${lang}-${theme}.png`), fullPage: true });
        await context.close();
      }
    }
  }
} finally {
  await platform.close();
}
console.log(`screenshots written to ${out}`);
