import { legacyCall } from "./legacy.ts";
import { clearSession, tokenStore } from "./session.ts";

const AMOUNT_KEY = "demoAmount";

/** Opens a demo account with the chosen simulated USDT amount (web/tempLogin) and signs in to it. */
export async function startDemo(amount: string): Promise<void> {
  const { token } = await legacyCall<{ token: string }>("tempLogin", { amount });
  localStorage.setItem(AMOUNT_KEY, amount);
  tokenStore.set(token);
}

/** A new demo account with the amount chosen last time, after the old one expired. */
export function regenerateDemo(): Promise<void> {
  return startDemo(localStorage.getItem(AMOUNT_KEY) ?? "10000");
}

/** Leaves the demo account: the session ends and the user is back at login. */
export function exitDemo(): void {
  clearSession();
  window.location.assign("/login");
}
