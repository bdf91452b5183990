import { describe, expect, it } from "vitest";
import { createRequestIntent, REQUEST_KEY_HEADER, requestKeyHeaders, withRequestKey } from "./request-key.ts";

/** Every money action carries one key per user intent: a retry reuses it, a new intent gets a new one. */
describe("request keys", () => {
  const withdrawal = { currency: "USDT", amount: "100", address_id: 3 };

  it("reuses the key while the same request is retried, and makes a new one for another request", () => {
    const intent = createRequestIntent();
    const key = intent.keyFor(withdrawal);
    expect(key).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(intent.keyFor({ ...withdrawal })).toBe(key);
    const other = intent.keyFor({ ...withdrawal, amount: "200" });
    expect(other).not.toBe(key);
    expect(createRequestIntent().keyFor(withdrawal)).not.toBe(key);
  });

  it("sends the key with each call; a failed call retried sends it again, a new submit after success a new one", async () => {
    const intent = createRequestIntent();
    const sent: string[] = [];
    let fail = true;
    const mutate = async (_input: typeof withdrawal, opts: { context: Record<string, unknown> }) => {
      sent.push(String(opts.context.idempotencyKey));
      if (fail) {
        throw new Error("network");
      }
      return { id: sent.length };
    };
    const send = withRequestKey(mutate, intent);
    await expect(send(withdrawal)).rejects.toThrow("network");
    fail = false;
    await expect(send(withdrawal)).resolves.toEqual({ id: 2 });
    await send(withdrawal);
    expect(sent[1]).toBe(sent[0]);
    expect(sent[2]).not.toBe(sent[1]);
  });

  it("keys a call without input (close all positions) like any other: one key until it succeeds", () => {
    const intent = createRequestIntent();
    const key = intent.keyFor(undefined);
    expect(key).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(intent.keyFor(undefined)).toBe(key);
    intent.succeeded();
    expect(intent.keyFor(undefined)).not.toBe(key);
  });

  it("puts the key of an operation's context into the Idempotency-Key header, and nothing otherwise", () => {
    expect(REQUEST_KEY_HEADER).toBe("idempotency-key");
    expect(requestKeyHeaders({ idempotencyKey: "abcdefgh12" })).toEqual({ "idempotency-key": "abcdefgh12" });
    expect(requestKeyHeaders({})).toEqual({});
  });
});
