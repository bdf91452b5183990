import { isLanguage, type Language } from "@northstar/shared/languages";
import { createStoredValue, useStoredValue } from "./store.ts";

export const tokenStore = createStoredValue<string>("token", "");
export const languageStore = createStoredValue<Language>("lang", "en", isLanguage);
export type ThemeMode = "light" | "dark";
export const themeStore = createStoredValue<ThemeMode>(
  "theme",
  "light",
  (v): v is ThemeMode => v === "light" || v === "dark",
);

export const useToken = () => useStoredValue(tokenStore);
export const useIsLoggedIn = () => useStoredValue(tokenStore) !== "";
export const useLanguage = () => useStoredValue(languageStore);
export const useThemeMode = () => useStoredValue(themeStore);

/** Clears the token from storage (SPEC section 4); the server side is revoked by the caller first. */
export function clearSession(): void {
  tokenStore.set(null);
  sessionStorage.clear();
}
