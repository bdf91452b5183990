import { useSyncExternalStore } from "react";

const query = "(prefers-reduced-motion: reduce)";

function subscribe(onChange: () => void): () => void {
  const list = window.matchMedia?.(query);
  list?.addEventListener("change", onChange);
  return () => list?.removeEventListener("change", onChange);
}

const reduced = () => window.matchMedia?.(query).matches ?? false;

/** Whether the user asked their system for less motion (WCAG 2.3.3); antd's transitions follow it. */
export const useReducedMotion = () => useSyncExternalStore(subscribe, reduced, () => false);
