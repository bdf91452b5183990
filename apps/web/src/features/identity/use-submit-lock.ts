import { useCallback, useRef, useState } from "react";

/**
 * Runs a submit at most once at a time: the flag drives the button's loading state, and the ref
 * refuses a second run (a double click or a repeated Enter) before React re-renders.
 */
export function useSubmitLock(): [boolean, (run: () => Promise<void>) => Promise<void>] {
  const busy = useRef(false);
  const [submitting, setSubmitting] = useState(false);
  const guard = useCallback(async (run: () => Promise<void>) => {
    if (busy.current) {
      return;
    }
    busy.current = true;
    setSubmitting(true);
    try {
      await run();
    } finally {
      busy.current = false;
      setSubmitting(false);
    }
  }, []);
  return [submitting, guard];
}
