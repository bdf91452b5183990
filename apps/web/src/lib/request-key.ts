import { useState } from "react";

/**
 * Idempotency keys for money actions: every mutation the API declares money (its `moneyProcedure`)
 * refuses a request without one, so each such call goes through `withRequestKey`. One key stands
 * for one user intent: sending the same request again (a retry after a lost answer, a second click)
 * reuses it, so the server applies it once and answers the first result; once a request has
 * succeeded, or the request changes, the next send gets a new key.
 */
export const REQUEST_KEY_HEADER = "idempotency-key";
const CONTEXT_KEY = "idempotencyKey";

/** 16 random bytes, base64url: 22 characters. getRandomValues works on plain-HTTP origins too. */
export function newRequestKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

export interface RequestIntent {
  /** The key for this request: the last one while the request is unchanged and has not succeeded. */
  keyFor(input: unknown): string;
  /** The request succeeded: the next send is a new intent. */
  succeeded(): void;
}

export function createRequestIntent(): RequestIntent {
  let last: { body: string; key: string } | null = null;
  return {
    keyFor(input) {
      // A call without input (close all positions) stringifies to undefined: one body like any other.
      const body = JSON.stringify(input) ?? "";
      if (last === null || last.body !== body) {
        last = { body, key: newRequestKey() };
      }
      return last.key;
    },
    succeeded() {
      last = null;
    },
  };
}

/**
 * A mutation function that sends each call with its intent's key in the tRPC operation context
 * (the link turns it into the Idempotency-Key header).
 */
export function withRequestKey<I, O>(
  mutate: (input: I, opts: { context: Record<string, unknown> }) => Promise<O>,
  intent: RequestIntent,
): (input: I) => Promise<O> {
  return async (input) => {
    const result = await mutate(input, { context: { [CONTEXT_KEY]: intent.keyFor(input) } });
    intent.succeeded();
    return result;
  };
}

/** The header for an operation whose context carries a key; none otherwise. */
export function requestKeyHeaders(context: Record<string, unknown>): Record<string, string> {
  const key = context[CONTEXT_KEY];
  return typeof key === "string" ? { [REQUEST_KEY_HEADER]: key } : {};
}

/** Whether an operation carries a key (it then goes alone, since a header is per HTTP request). */
export const hasRequestKey = (context: Record<string, unknown>) => typeof context[CONTEXT_KEY] === "string";

/** One intent per mounted form: its sends share a key until one succeeds or the request changes. */
export function useRequestIntent(): RequestIntent {
  return useState(createRequestIntent)[0];
}
