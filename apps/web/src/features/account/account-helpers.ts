import { useQueryClient } from "@tanstack/react-query";
import type { FormInstance } from "antd";
import { useCallback } from "react";
import { useLocation } from "react-router";
import { toApiError } from "../../lib/trpc.ts";

/** Refetches the session state (web/info) after the user changed something it carries. */
export function useInvalidateSession(): () => Promise<void> {
  const queryClient = useQueryClient();
  return useCallback(() => queryClient.invalidateQueries({ queryKey: ["web/info"] }), [queryClient]);
}

/**
 * The global client rules already showed the refusal as a warning; this also puts it on the form
 * field the server named (`ApiError.field`). `aliases` maps server field paths to form field names
 * where they differ (e.g. `answers.0.answer` → `answer_1`).
 */
export function markRefusedField(
  form: FormInstance,
  error: unknown,
  aliases: Record<string, string> = {},
): void {
  const apiError = toApiError(error);
  if (!apiError.field) {
    return;
  }
  const name = aliases[apiError.field] ?? apiError.field;
  form.setFields([{ name, errors: [apiError.message] }]);
}

/**
 * Where to go after a security change: back to the page that sent the user here
 * (`?redirect=/path`, same-origin paths only), or else the security centre.
 */
export function useReturnPath(fallback = "/security"): string {
  const { search } = useLocation();
  const redirect = new URLSearchParams(search).get("redirect");
  return redirect?.startsWith("/") && !redirect.startsWith("//") ? redirect : fallback;
}

/** Keeps only digits, at most `max`: the 6-digit transaction password and verification codes. */
export const digitsOnly =
  (max: number) =>
  (value: unknown): string =>
    String(value ?? "")
      .replace(/\D/g, "")
      .slice(0, max);
