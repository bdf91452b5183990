import { describe, expect, it } from "vitest";
import { requestHash } from "./index.ts";

describe("requestHash", () => {
  const order = { symbol: "BTCUSDT", side: "buy", price: "50000", quantity: "0.001", note: "é" };

  it("stays the hash already stored with recorded requests (SHA-256 of the action, a newline, the JSON)", () => {
    // Computed with the earlier form (a Hash object fed the three parts): a resend after an upgrade
    // must still match the hash its first request stored.
    expect(requestHash("spot.place", order)).toBe(
      "263fa1f8396c9ce127a5be1092a1cf192e49dbab066e08985a4672a81b4c1cca",
    );
  });

  it("leaves secrets out, and tells actions and inputs apart", () => {
    expect(requestHash("spot.place", { ...order, trade_password: "123456" })).toBe(
      requestHash("spot.place", order),
    );
    expect(requestHash("spot.cancel", order)).not.toBe(requestHash("spot.place", order));
    expect(requestHash("spot.place", { ...order, quantity: "0.002" })).not.toBe(
      requestHash("spot.place", order),
    );
  });
});
