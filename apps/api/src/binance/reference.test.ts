import { readFileSync } from "node:fs";
import { signPayload } from "@northstar/domain/apikeys";
import { describe, expect, it } from "vitest";
import { ENDPOINTS, MARKET_STREAMS, openApiDocument, referencePage, WORKED_EXAMPLE } from "./reference.ts";
import { parseStreamName } from "./stream-names.ts";

describe("the bot API reference", () => {
  it("gives a worked example whose signature is what the server computes", () => {
    expect(signPayload(WORKED_EXAMPLE.secret, WORKED_EXAMPLE.query)).toBe(WORKED_EXAMPLE.signature);
    // The written guide carries the same figures.
    const guide = readFileSync(new URL("../../../../docs/bot-api.md", import.meta.url), "utf8");
    for (const value of Object.values(WORKED_EXAMPLE)) {
      expect(guide).toContain(value);
    }
  });

  it("documents every route with the parameters its zod schema parses, signed ones with the signing fields", () => {
    const doc = openApiDocument();
    expect(doc.openapi).toBe("3.1.0");
    const order = (
      doc.paths["/api/v3/order"] as Record<string, { parameters: { name: string; required: boolean }[] }>
    ).post;
    const names = order?.parameters.map((p) => p.name);
    expect(names).toEqual(
      expect.arrayContaining([
        "symbol",
        "side",
        "type",
        "quantity",
        "newClientOrderId",
        "timestamp",
        "signature",
      ]),
    );
    expect(order?.parameters.find((p) => p.name === "symbol")?.required).toBe(true);
    expect(Object.keys(doc.paths)).toHaveLength(new Set(ENDPOINTS.map((e) => e.path)).size);
    expect(referencePage()).toContain(WORKED_EXAMPLE.signature);
  });

  it("documents stream names the server parses, and the server refuses names it does not serve", () => {
    for (const stream of MARKET_STREAMS) {
      expect(parseStreamName(stream.name), stream.name).not.toBeNull();
      expect(referencePage()).toContain(stream.name);
    }
    expect(parseStreamName("btcusdt@depth20@100ms")).toMatchObject({
      kind: "depthPartial",
      levels: 20,
      symbol: "BTCUSDT",
    });
    expect(parseStreamName("btcusdt@depth@1000ms")).toMatchObject({ kind: "depthDiff" });
    expect(parseStreamName("btcusdt@kline_1M")).toMatchObject({ kind: "kline", interval: "1M" });
    expect(parseStreamName("ethusdt@aggTrade")).toMatchObject({ kind: "aggTrade", symbol: "ETHUSDT" });
    expect(parseStreamName("ethusdt@miniTicker")).toMatchObject({ kind: "miniTicker", symbol: "ETHUSDT" });
    expect(parseStreamName("!miniTicker@arr")).toMatchObject({ kind: "allMiniTickers", symbol: "" });
    for (const bad of [
      "btcusdt@kline_3m",
      "btcusdt@depth7",
      "BTCUSDT@trade",
      "btcusdt@aggtrade",
      "!ticker@arr",
      "!miniticker@arr",
      "btcusdt",
      "@trade",
    ]) {
      expect(parseStreamName(bad), bad).toBeNull();
    }
  });
});
