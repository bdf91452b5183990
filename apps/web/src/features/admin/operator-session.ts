import { useSyncExternalStore } from "react";

/**
 * The operator's session token. It lives in sessionStorage under "operatorToken" (the key the tRPC
 * client reads to send `x-operator-token`), so it ends with the browser tab and never mixes with a
 * user's session in localStorage.
 */
const KEY = "operatorToken";
const listeners = new Set<() => void>();
/** Whether the token was last dropped by the operator signing out (rather than by expiry). */
let signedOut = false;

function read(): string {
  try {
    return sessionStorage.getItem(KEY) ?? "";
  } catch {
    return "";
  }
}

function notify(): void {
  for (const listener of listeners) {
    listener();
  }
}

export const operatorTokenStore = {
  get: read,
  set(token: string): void {
    signedOut = false;
    sessionStorage.setItem(KEY, token);
    notify();
  },
  clear(reason: "signout" | "expired" = "expired"): void {
    signedOut = reason === "signout";
    sessionStorage.removeItem(KEY);
    notify();
  },
  signedOut: (): boolean => signedOut,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  },
};

export const useOperatorToken = () =>
  useSyncExternalStore(operatorTokenStore.subscribe, operatorTokenStore.get, operatorTokenStore.get);
