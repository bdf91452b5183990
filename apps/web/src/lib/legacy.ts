import { ResponseCode } from "@northstar/shared/errors";
import i18n from "../i18n/index.ts";
import { ApiError, applyClientRules, MESSAGE_EVENTS } from "./client-rules.ts";
import { feedback } from "./feedback.ts";
import { languageStore, tokenStore } from "./session.ts";

interface Envelope<T> {
  code: number;
  message: string;
  data: T;
  time: number;
  event?: string;
}

/** 6 to 16 random characters, sent with every call (SPEC section 7). */
function rtoken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return Array.from(bytes, (b) => "abcdefghijklmnopqrstuvwxyz0123456789"[b % 36]).join("");
}

// SPEC section 9: HTTP timeout 30 seconds.
const TIMEOUT_MS = 30_000;

/**
 * Calls a legacy `web/*` endpoint, form-encoded, with token, lang and rtoken, and applies the client
 * rules of SPEC section 8 to the answer. Resolves with `data` on code 0 or 7; rejects otherwise.
 */
export async function legacyCall<T>(
  name: string,
  fields: Record<string, string | number | boolean | undefined> = {},
  options: { method?: "GET" | "POST"; silent?: boolean } = {},
): Promise<T> {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(fields)) {
    if (value !== undefined) {
      params.set(key, String(value));
    }
  }
  params.set("lang", languageStore.get());
  params.set("rtoken", rtoken());
  const method = options.method ?? "POST";
  // The session token goes in a header, never in a URL, where logs and history would keep it.
  const headers: Record<string, string> = { token: tokenStore.get() };
  if (method === "POST") {
    headers["content-type"] = "application/x-www-form-urlencoded";
  }
  let envelope: Envelope<T>;
  try {
    const response = await fetch(method === "GET" ? `/web/${name}?${params}` : `/web/${name}`, {
      method,
      headers,
      body: method === "POST" ? params : undefined,
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    envelope = (await response.json()) as Envelope<T>;
  } catch (error) {
    // Network errors are logged and rejected (SPEC section 8).
    console.error(`web/${name} failed`, error);
    const apiError = new ApiError(i18n.t("errors.NETWORK_ERROR"), -1, "NETWORK_ERROR", undefined);
    if (!options.silent) {
      feedback.warning(apiError.message);
    }
    throw apiError;
  }
  if (envelope.code === ResponseCode.Ok || envelope.code === ResponseCode.Quiet) {
    if (
      envelope.code === ResponseCode.Ok &&
      envelope.event &&
      MESSAGE_EVENTS.has(envelope.event) &&
      envelope.message
    ) {
      feedback.success(envelope.message);
    }
    return envelope.data;
  }
  const data = (envelope.data ?? {}) as { error?: string; field?: string };
  const apiError = new ApiError(envelope.message, envelope.code, data.error, data.field);
  applyClientRules(apiError, { silent: options.silent });
  throw apiError;
}
