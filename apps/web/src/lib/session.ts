import { isLanguage, type Language } from "@northstar/shared/languages";
import { createStoredValue } from "./store.ts";

export const tokenStore = createStoredValue<string>("token", "");
export const languageStore = createStoredValue<Language>("lang", "en", isLanguage);
export type ThemeMode = "light" | "dark";
export const themeStore = createStoredValue<ThemeMode>("theme", "light", (v): v is ThemeMode => v === "light" || v === "dark");

export const useToken = () => tokenStore.use();
export const useIsLoggedIn = () => tokenStore.use() !== "";

/** Clears the token from storage (SPEC section 4); the server side is revoked by the caller first. */
export function clearSession(): void {
  tokenStore.set(null);
  sessionStorage.clear();
}
