import { describe, expect, it } from "vitest";
import { ticksCsv } from "./ticks-csv.ts";

describe("ticksCsv", () => {
  it("writes every tick with its provenance, prices exact, and quotes a field that needs it", () => {
    const csv = ticksCsv([
      {
        id: 7,
        symbol: "BTCUSDT",
        price: "64210.50000001",
        time: "2026-01-07T12:00:00.412Z",
        source: "binance",
        source_symbol: "BTC/USDT",
        source_time: "2026-01-07T12:00:00.409Z",
        source_id: 'a,"b"',
        received_at: "2026-01-07T12:00:00.431Z",
      },
      {
        id: 8,
        symbol: "BTCUSDT",
        price: "64211",
        time: "2026-01-07T12:00:01.000Z",
        source: null,
        source_symbol: null,
        source_time: null,
        source_id: null,
        received_at: null,
      },
    ]);
    expect(csv.split("\r\n")).toEqual([
      "id,symbol,price,time,source,source_symbol,source_time,source_id,received_at",
      '7,BTCUSDT,64210.50000001,2026-01-07T12:00:00.412Z,binance,BTC/USDT,2026-01-07T12:00:00.409Z,"a,""b""",2026-01-07T12:00:00.431Z',
      "8,BTCUSDT,64211,2026-01-07T12:00:01.000Z,,,,,",
      "",
    ]);
  });
});
