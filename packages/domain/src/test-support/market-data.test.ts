import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { requireMarketData } from "./market-data.ts";

describe("requireMarketData", () => {
  const dir = mkdtempSync(join(tmpdir(), "recordings-"));
  writeFileSync(join(dir, "BTCUSDT_1m.csv"), "time,open,high,low,close,volume\n");
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("answers the folder when every recording asked for is there", () => {
    expect(requireMarketData(["BTCUSDT_1m.csv"], dir)).toBe(dir);
  });

  it("throws, naming the folder, the missing files and how to point at them, instead of skipping", () => {
    const missing = join(dir, "absent");
    expect(() => requireMarketData(["BTCUSDT_1m.csv", "EURUSD_1m.csv"], missing)).toThrow(
      new RegExp(`${missing}.*BTCUSDT_1m\\.csv, EURUSD_1m\\.csv.*MARKET_DATA_DIR`, "s"),
    );
    expect(() => requireMarketData(["BTCUSDT_1m.csv", "ETHUSDT_1h.csv"], dir)).toThrow(/ETHUSDT_1h\.csv/);
  });
});
