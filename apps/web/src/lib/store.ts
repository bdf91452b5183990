import { useSyncExternalStore } from "react";

/**
 * A value kept in localStorage that components can subscribe to. Used for the session token
 * (SPEC section 4: the token is kept in local storage), the language and the theme.
 */
export function createStoredValue<T extends string>(
  key: string,
  fallback: T,
  accept: (v: string) => v is T = (v): v is T => true,
) {
  const listeners = new Set<() => void>();
  const read = (): T => {
    const value = localStorage.getItem(key);
    return value !== null && accept(value) ? value : fallback;
  };
  const notify = () => {
    for (const l of listeners) {
      l();
    }
  };
  // Another tab logging out or switching language updates this one too.
  window.addEventListener("storage", (e) => {
    if (e.key === key) {
      notify();
    }
  });
  return {
    get: read,
    set(value: T | null) {
      if (value === null) {
        localStorage.removeItem(key);
      } else {
        localStorage.setItem(key, value);
      }
      notify();
    },
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}

/** Subscribes a component to a stored value. */
export function useStoredValue<T extends string>(store: {
  get(): T;
  subscribe(l: () => void): () => void;
}): T {
  return useSyncExternalStore(store.subscribe, store.get, store.get);
}
