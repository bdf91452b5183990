import { loadCatalogue, recordRunningFeed } from "@northstar/domain/markets";
import { type ErrorCode, ResponseCode } from "@northstar/shared/errors";
import { translate } from "@northstar/shared/i18n";
import type { Language } from "@northstar/shared/languages";
import type { InstrumentInput } from "@northstar/shared/markets";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fieldKey } from "../http/errors.ts";
import { expectOk, expectTrpcRefusal, query } from "../test/fixtures.ts";
import { createHarness, type Harness } from "../test/harness.ts";
import { admin, dataOf, operatorToken, type TrpcResult } from "../test/money.ts";

/**
 * The instrument catalogue: what is seeded, how operators add, edit and switch instruments off
 * (validated, role-checked, audited), how the public market list filters and pages it, even with
 * thousands of rows, and the user's favourites.
 */
let h: Harness;
let op: string;
let opId: number;
beforeAll(async () => {
  h = await createHarness();
  op = await operatorToken(h, "admin");
  opId = dataOf<{ id: number }>(await admin(h, "me", undefined, op, "query")).id;
});
afterAll(async () => {
  await h?.close();
});

interface Hours {
  timeZone: string;
  sessions: { days: number[]; open: string; close: string }[];
}
interface AdminRow {
  symbol: string;
  name: string;
  category: string;
  base: string;
  quote: string;
  tickSize: string;
  lotSize: string;
  minQty: string;
  contractSize: string;
  maxLeverage: number;
  displayDecimals: number;
  kinds: string[];
  tradingHours: Hours;
  referencePrice: string;
  volatility: string;
  sort: number;
  enabled: boolean;
}
type MarketRow = Omit<AdminRow, "referencePrice" | "volatility" | "sort" | "enabled"> & {
  open: boolean;
  ticker: unknown;
};
interface Page<T> {
  items: T[];
  total: number;
}

const marketList = async (input: Record<string, unknown> = {}) =>
  dataOf<Page<MarketRow>>(await h.trpc("market.list", input, undefined, "query"));
const adminList = async (input: Record<string, unknown> = {}, token = op) =>
  dataOf<Page<AdminRow>>(
    await admin(h, "instruments", { page: 1, page_size: 200, ...input }, token, "query"),
  );
const symbolsOf = (page: Page<{ symbol: string }>) => page.items.map((i) => i.symbol);

/** Every row of a listing, page by page. */
async function everyRow<T>(fetch: (page: number) => Promise<Page<T>>): Promise<T[]> {
  const rows: T[] = [];
  for (let page = 1; ; page += 1) {
    const { items, total } = await fetch(page);
    rows.push(...items);
    if (items.length === 0 || rows.length >= total) {
      return rows;
    }
  }
}

/** An admin call in a given interface language (the `lang` header the web app sends). */
async function adminIn(lang: Language, path: string, input: unknown, token: string): Promise<TrpcResult> {
  const response = await h.app.inject({
    method: "POST",
    url: `/trpc/admin.${path}`,
    payload: JSON.stringify(input),
    headers: { "content-type": "application/json", "x-operator-token": token, lang },
  });
  return { status: response.statusCode, body: response.json() };
}

/** A count from SQL, to compare listings with what the table holds. */
async function countWhere(where: string, params: unknown[] = []): Promise<number> {
  const [row] = await query<{ n: number }>(
    h,
    `select count(*)::int as n from instruments where ${where}`,
    params,
  );
  return row?.n ?? -1;
}

/** The catalogue and its audit trail as one fingerprint: equal fingerprints mean nothing changed. */
async function fingerprint(): Promise<string> {
  const [row] = await query<{ rows: string; audit: number }>(
    h,
    `select md5(coalesce(string_agg(i::text, '|' order by i.id), '')) as rows,
            (select count(*)::int from audit_log where action like 'instrument.%') as audit
       from instruments i`,
  );
  return JSON.stringify(row);
}

const NEW_COIN: InstrumentInput = {
  symbol: "QATESTUSDT",
  name: "QA Test Coin",
  category: "crypto",
  base: "QATEST",
  quote: "USDT",
  tickSize: "0.0001",
  lotSize: "0.1",
  minQty: "1",
  contractSize: "1",
  maxLeverage: 20,
  displayDecimals: 4,
  kinds: ["spot", "contract"],
  tradingHours: { timeZone: "UTC", sessions: [] },
  referencePrice: "1.2345",
  volatility: "0.9",
  sort: 500,
  enabled: true,
};

describe("the seeded catalogue", () => {
  it("holds real crypto pairs, forex majors, stocks, indices, ETFs, metals and energy", async () => {
    const all = await everyRow((page) => adminList({ page }));
    const bySymbol = new Map(all.map((r) => [r.symbol, r]));
    const inCategory = (c: string) => all.filter((r) => r.category === c);

    // Crypto pairs quoted in USDT, and the bitcoin CFD (contract only, quoted in USD, at most 25x).
    const cfds = inCategory("crypto").filter((r) => r.quote === "USD");
    expect(cfds.map((r) => r.symbol)).toEqual(["BTCUSD"]);
    expect(bySymbol.get("BTCUSD")).toMatchObject({ base: "BTC", kinds: ["contract"], maxLeverage: 25 });
    // Delivery contracts on bitcoin and ether, weekly and quarterly: contracts only, around the clock.
    const delivery = inCategory("crypto").filter((r) => /-[WQ]$/.test(r.symbol));
    expect(delivery.map((r) => r.symbol).sort()).toEqual([
      "BTCUSDT-Q",
      "BTCUSDT-W",
      "ETHUSDT-Q",
      "ETHUSDT-W",
    ]);
    for (const d of delivery) {
      expect(d).toMatchObject({ quote: "USDT", kinds: ["contract"], tradingHours: { sessions: [] } });
    }
    const crypto = inCategory("crypto").filter((r) => r.quote !== "USD" && !delivery.includes(r));
    expect(crypto.length).toBeGreaterThanOrEqual(30);
    for (const pair of crypto) {
      expect(pair).toMatchObject({ quote: "USDT", symbol: `${pair.base}USDT` });
      // Crypto trades around the clock, on the exchange (spot) and as contracts.
      expect(pair.tradingHours.sessions).toEqual([]);
      expect(pair.kinds).toEqual(expect.arrayContaining(["spot", "contract"]));
    }
    expect(bySymbol.get("BTCUSDT")).toMatchObject({ name: "Bitcoin", base: "BTC", category: "crypto" });
    expect(bySymbol.get("ETHUSDT")).toMatchObject({ name: "Ethereum", base: "ETH" });
    for (const symbol of ["SOLUSDT", "XRPUSDT", "DOGEUSDT", "BNBUSDT"]) {
      expect(bySymbol.get(symbol)?.category, symbol).toBe("crypto");
    }

    const majors = ["EURUSD", "GBPUSD", "USDJPY", "USDCHF", "AUDUSD", "USDCAD", "NZDUSD"];
    for (const symbol of majors) {
      expect(bySymbol.get(symbol), symbol).toMatchObject({
        category: "forex",
        base: symbol.slice(0, 3),
        quote: symbol.slice(3),
        tradingHours: { timeZone: "America/New_York" },
      });
    }

    const stocks = inCategory("stocks");
    expect(stocks.length).toBeGreaterThanOrEqual(20);
    expect(bySymbol.get("AAPL")).toMatchObject({ name: "Apple", category: "stocks", quote: "USD" });
    expect(bySymbol.get("MSFT")?.category).toBe("stocks");
    expect(bySymbol.get("NVDA")?.category).toBe("stocks");
    expect(bySymbol.get("AAPL")?.tradingHours).toEqual({
      timeZone: "America/New_York",
      sessions: [{ days: [1, 2, 3, 4, 5], open: "09:30", close: "16:00" }],
    });

    expect(inCategory("indices").map((r) => r.symbol)).toEqual(
      expect.arrayContaining(["SPX500", "NAS100", "US30", "GER40", "JPN225"]),
    );
    expect(inCategory("etfs").map((r) => r.symbol)).toEqual(expect.arrayContaining(["SPY", "QQQ"]));
    expect(bySymbol.get("XAUUSD")).toMatchObject({ name: "Gold", category: "metals" });
    expect(bySymbol.get("XAGUSD")).toMatchObject({ name: "Silver", category: "metals" });
    expect(bySymbol.get("USOIL")).toMatchObject({
      category: "energy",
      name: expect.stringMatching(/crude oil/i),
    });
    expect(bySymbol.get("NGAS")).toMatchObject({ category: "energy", name: "Natural Gas" });

    // Every row is usable: positive steps and a reference price, a supported display precision.
    for (const row of all) {
      for (const value of [row.tickSize, row.lotSize, row.minQty, row.contractSize, row.referencePrice]) {
        expect(Number(value), `${row.symbol} ${value}`).toBeGreaterThan(0);
      }
      expect([2, 4, 6]).toContain(row.displayDecimals);
      expect(Number(row.minQty)).toBeGreaterThanOrEqual(Number(row.lotSize));
    }
    expect(all.length).toBe(await countWhere("true"));
    expect((await marketList()).total).toBe(await countWhere("enabled"));
  });
});

describe("operators edit the catalogue", () => {
  it("adds, edits, disables and re-enables an instrument, and audits each change", async () => {
    const before = (await marketList()).total;
    const created = dataOf<AdminRow>(await admin(h, "saveInstrument", NEW_COIN, op));
    expect(created).toMatchObject({ ...NEW_COIN, minQty: "1", enabled: true });
    expect((await marketList()).total).toBe(before + 1);
    expect(symbolsOf(await marketList({ search: "qatest" }))).toEqual(["QATESTUSDT"]);
    expect((await marketList({ search: "QATEST" })).items[0]).toMatchObject({
      name: "QA Test Coin",
      open: true,
      tickSize: "0.0001",
    });

    // An edit of the same symbol changes that row; it does not add another.
    const hours = {
      timeZone: "Asia/Tokyo",
      sessions: [{ days: [1, 2, 3, 4, 5], open: "09:00", close: "15:30" }],
    };
    const edited = dataOf<AdminRow>(
      await admin(
        h,
        "saveInstrument",
        { ...NEW_COIN, name: "QA Test Coin II", tickSize: "0.001", maxLeverage: 25, tradingHours: hours },
        op,
      ),
    );
    expect(edited).toMatchObject({
      name: "QA Test Coin II",
      tickSize: "0.001",
      maxLeverage: 25,
      tradingHours: hours,
    });
    expect((await marketList()).total).toBe(before + 1);
    expect(await countWhere("symbol = $1", ["QATESTUSDT"])).toBe(1);
    expect(
      dataOf<MarketRow>(await h.trpc("market.instrument", { symbol: "QATESTUSDT" }, undefined, "query")),
    ).toMatchObject({ name: "QA Test Coin II", tickSize: "0.001", tradingHours: hours });

    // Disabled: gone from every public list and from the feed's catalogue; still in the back office.
    expectOk(await admin(h, "setInstrumentEnabled", { symbol: "QATESTUSDT", enabled: false }, op));
    expect((await marketList()).total).toBe(before);
    expect((await marketList({ search: "QATEST" })).items).toEqual([]);
    expect(
      (await marketList({ category: "crypto", page_size: 200 })).items.map((i) => i.symbol),
    ).not.toContain("QATESTUSDT");
    expect((await marketList({ symbols: ["QATESTUSDT"] })).total).toBe(0);
    expect((await loadCatalogue(h.db)).map((i) => i.symbol)).not.toContain("QATESTUSDT");
    expect((await adminList({ search: "QATEST" })).items).toMatchObject([
      { symbol: "QATESTUSDT", enabled: false },
    ]);

    // Enabled again: back everywhere.
    expectOk(await admin(h, "setInstrumentEnabled", { symbol: "QATESTUSDT", enabled: true }, op));
    expect((await marketList()).total).toBe(before + 1);
    expect(symbolsOf(await marketList({ search: "QATEST" }))).toEqual(["QATESTUSDT"]);
    expect((await loadCatalogue(h.db)).map((i) => i.symbol)).toContain("QATESTUSDT");

    const audit = await query<{ actor: string; action: string; details: Record<string, unknown> }>(
      h,
      "select actor, action, details from audit_log where subject = 'QATESTUSDT' order by id",
    );
    expect(audit.map((a) => [a.actor, a.action])).toEqual([
      [`operator:${opId}`, "instrument.create"],
      [`operator:${opId}`, "instrument.update"],
      [`operator:${opId}`, "instrument.disable"],
      [`operator:${opId}`, "instrument.enable"],
    ]);
    expect(audit[0]?.details).toMatchObject({ before: null, after: { name: "QA Test Coin" } });
    expect(audit[1]?.details).toMatchObject({
      before: { name: "QA Test Coin", tickSize: "0.0001", maxLeverage: 20 },
      after: { name: "QA Test Coin II", tickSize: "0.001", maxLeverage: 25 },
    });

    const unknown = await admin(h, "setInstrumentEnabled", { symbol: "NOSUCHUSDT", enabled: false }, op);
    expectTrpcRefusal(unknown, "INSTRUMENT_NOT_FOUND");
  });

  const BAD_INPUTS: { label: string; patch: Record<string, unknown>; code: ErrorCode; field: string }[] = [
    { label: "tick size 0", patch: { tickSize: "0" }, code: "AMOUNT_INVALID", field: "tickSize" },
    { label: "negative tick size", patch: { tickSize: "-0.01" }, code: "AMOUNT_INVALID", field: "tickSize" },
    { label: "tick size abc", patch: { tickSize: "abc" }, code: "AMOUNT_INVALID", field: "tickSize" },
    {
      label: "minimum quantity below the lot size",
      patch: { lotSize: "0.1", minQty: "0.05" },
      code: "FIELD_INVALID",
      field: "minQty",
    },
    {
      label: "3 display decimals",
      patch: { displayDecimals: 3 },
      code: "FIELD_INVALID",
      field: "displayDecimals",
    },
    {
      label: "a session opening at 25:00",
      patch: {
        tradingHours: {
          timeZone: "UTC",
          sessions: [{ days: [1, 2, 3, 4, 5], open: "25:00", close: "26:00" }],
        },
      },
      code: "FIELD_INVALID",
      field: "tradingHours.sessions.0.open",
    },
    { label: "an unknown category", patch: { category: "bonds" }, code: "FIELD_INVALID", field: "category" },
  ];

  it.each(BAD_INPUTS)(
    "refuses $label with a translated message and changes nothing",
    async ({ patch, code, field }) => {
      const btc = (await adminList({ search: "BTCUSDT" })).items.find((i) => i.symbol === "BTCUSDT");
      expect(btc).toBeDefined();
      const unchanged = await fingerprint();
      for (const lang of ["en", "zh", "xby"] as const) {
        for (const base of [
          { ...NEW_COIN, symbol: "REFUSEDUSDT" },
          { ...btc, name: "Bitcoin (edited)" },
        ]) {
          const res = await adminIn(lang, "saveInstrument", { ...base, ...patch }, op);
          const message =
            code === "FIELD_INVALID"
              ? translate(lang, "errors.FIELD_INVALID", { field: translate(lang, fieldKey(field)) })
              : translate(lang, `errors.${code}`);
          expectTrpcRefusal(res, code, { message });
          expect(res.body.error?.data.field).toBe(field);
          // A missing catalog entry would show through as a key (`fields.minQty`) or a `{{placeholder}}`.
          expect(res.body.error?.message).not.toMatch(/\{\{|\b(errors|fields)\.[A-Za-z]/);
        }
      }
      expect(await fingerprint()).toBe(unchanged);
    },
  );

  it("refuses every catalogue call to an operator who is not an administrator", async () => {
    const unchanged = await fingerprint();
    for (const role of ["finance", "support", "content"] as const) {
      const token = await operatorToken(h, role);
      const list = await admin(h, "instruments", { page: 1, page_size: 50 }, token, "query");
      expectTrpcRefusal(list, "FORBIDDEN");
      expect(list.body.error?.message).toBe(translate("en", "errors.FORBIDDEN"));
      expectTrpcRefusal(
        await admin(h, "saveInstrument", { ...NEW_COIN, symbol: "ROLEUSDT" }, token),
        "FORBIDDEN",
      );
      expectTrpcRefusal(
        await admin(h, "setInstrumentEnabled", { symbol: "BTCUSDT", enabled: false }, token),
        "FORBIDDEN",
      );
      expectTrpcRefusal(
        await adminIn("jp", "setInstrumentEnabled", { symbol: "BTCUSDT", enabled: false }, token),
        "FORBIDDEN",
        {
          lang: "jp",
        },
      );
    }
    // No operator session, or a user's session instead of an operator's.
    expectTrpcRefusal(await admin(h, "saveInstrument", NEW_COIN, undefined), "LOGIN_REQUIRED", {
      responseCode: ResponseCode.NotLoggedIn,
    });
    const user = await h.registerByEmail();
    expectTrpcRefusal(
      await admin(h, "setInstrumentEnabled", { symbol: "BTCUSDT", enabled: false }, user.token),
      "LOGIN_REQUIRED",
      { responseCode: ResponseCode.NotLoggedIn },
    );
    expect(await fingerprint()).toBe(unchanged);
    // Still listed (the search also finds the bitcoin delivery contracts).
    expect(symbolsOf(await marketList({ search: "BTCUSDT" }))).toContain("BTCUSDT");
  });
});

describe("market.feed", () => {
  it("tells anyone whether the prices are simulated: until a live feed runs they are", async () => {
    // Exactly these two fields: nothing of the simulator's seed is told.
    expect(dataOf(await h.trpc("market.feed", undefined, undefined, "query"))).toEqual({
      kind: null,
      simulated: true,
    });
    await recordRunningFeed(h.db, "simulator", true);
    expect(dataOf(await h.trpc("market.feed", undefined, undefined, "query"))).toEqual({
      kind: "simulator",
      simulated: true,
    });
    await recordRunningFeed(h.db, "ccxt", false);
    expect(dataOf(await h.trpc("market.feed", undefined, undefined, "query"))).toEqual({
      kind: "ccxt",
      simulated: false,
    });
  });
});

describe("market.list", () => {
  it("filters by tab, category and search", async () => {
    const exchange = await everyRow((page) => marketList({ tab: "exchange", page, page_size: 100 }));
    expect(exchange.length).toBe(await countWhere("enabled and 'spot' = any(kinds)"));
    expect(exchange.length).toBeGreaterThanOrEqual(30);
    expect(exchange.every((r) => r.kinds.includes("spot"))).toBe(true);

    const contract = await everyRow((page) => marketList({ tab: "contract", page, page_size: 100 }));
    expect(contract.length).toBe(await countWhere("enabled and 'contract' = any(kinds)"));
    expect(contract.every((r) => r.kinds.includes("contract"))).toBe(true);
    expect(contract.map((r) => r.symbol)).toEqual(
      expect.arrayContaining(["EURUSD", "AAPL", "XAUUSD", "BTCUSDT"]),
    );

    const all = await everyRow((page) => marketList({ tab: "all", page, page_size: 100 }));
    expect(all.length).toBe(await countWhere("enabled"));

    for (const category of ["crypto", "forex", "stocks", "indices", "etfs", "metals", "energy"]) {
      const rows = await everyRow((page) => marketList({ category, page, page_size: 100 }));
      expect(rows.length, category).toBe(await countWhere("enabled and category = $1", [category]));
      expect(rows.length, category).toBeGreaterThan(0);
      expect(rows.every((r) => r.category === category)).toBe(true);
    }
    // Forex has no exchange market; crypto has both.
    expect(await marketList({ tab: "exchange", category: "forex" })).toEqual({ items: [], total: 0 });
    expect((await marketList({ tab: "contract", category: "crypto" })).total).toBe(
      await countWhere("enabled and category = 'crypto' and 'contract' = any(kinds)"),
    );

    // Search matches symbol, base or name, case-insensitively; wildcards are taken literally.
    expect(symbolsOf(await marketList({ search: "btc" }))).toContain("BTCUSDT");
    expect(symbolsOf(await marketList({ search: "gold" })).sort()).toEqual(["GLD", "XAUUSD"]);
    expect(symbolsOf(await marketList({ search: "Natural" }))).toEqual(["NGAS"]);
    expect(symbolsOf(await marketList({ search: "eur", category: "forex" }))).toEqual(
      expect.arrayContaining(["EURUSD", "EURGBP", "EURJPY"]),
    );
    expect(await marketList({ search: "%" })).toEqual({ items: [], total: 0 });
    expect(await marketList({ search: "_" })).toEqual({ items: [], total: 0 });
    expect(await marketList({ search: "no such market" })).toEqual({ items: [], total: 0 });
  });

  it("pages without gaps or repeats, in the catalogue's order", async () => {
    const whole = await marketList({ page_size: 200 });
    expect(whole.items.length).toBe(Math.min(whole.total, 200));
    const paged: string[] = [];
    for (let page = 1; page <= Math.ceil(whole.total / 7); page += 1) {
      const { items, total } = await marketList({ page, page_size: 7 });
      expect(total).toBe(whole.total);
      expect(items.length).toBe(Math.min(7, whole.total - (page - 1) * 7));
      paged.push(...items.map((i) => i.symbol));
    }
    expect(new Set(paged).size).toBe(paged.length);
    expect(paged).toEqual(symbolsOf(whole));
    const [first] = await query<{ symbol: string }>(
      h,
      "select symbol from instruments where enabled order by sort, symbol limit 1",
    );
    expect(paged[0]).toBe(first?.symbol);
    expect(await marketList({ page: Math.ceil(whole.total / 7) + 1, page_size: 7 })).toEqual({
      items: [],
      total: whole.total,
    });
    // The page size has the contract's bounds.
    expectTrpcRefusal(await h.trpc("market.list", { page_size: 201 }, undefined, "query"), "FIELD_INVALID", {
      params: { field: translate("en", "fields.pageSize") },
    });
  });
});

describe("favourites", () => {
  it("are each user's own, and only for instruments of the catalogue", async () => {
    const a = await h.registerByEmail();
    const b = await h.registerByEmail();
    const favourites = async (token: string) =>
      dataOf<string[]>(await h.trpc("market.favourites", undefined, token, "query"));
    const setFavourite = (token: string, symbol: string, favourite: boolean) =>
      h.trpc("market.setFavourite", { symbol, favourite }, token);

    expect(await favourites(a.token)).toEqual([]);
    expect(dataOf<string[]>(await setFavourite(a.token, "BTCUSDT", true))).toEqual(["BTCUSDT"]);
    expect(dataOf<string[]>(await setFavourite(a.token, "eurusd", true))).toEqual(["BTCUSDT", "EURUSD"]);
    // Marking twice is harmless.
    expect(dataOf<string[]>(await setFavourite(a.token, "BTCUSDT", true))).toEqual(["BTCUSDT", "EURUSD"]);

    expectTrpcRefusal(await setFavourite(a.token, "NOPEUSDT", true), "INSTRUMENT_NOT_FOUND");
    expectTrpcRefusal(await setFavourite(a.token, "?", true), "INSTRUMENT_NOT_FOUND");
    const refused = await setFavourite(a.token, "NOPEUSDT", true);
    expect(refused.body.error?.message).not.toMatch(/\{\{|\b(errors|fields)\.[A-Za-z]/);
    expect(await favourites(a.token)).toEqual(["BTCUSDT", "EURUSD"]);

    // B sees none of A's, and A none of B's.
    expect(await favourites(b.token)).toEqual([]);
    expect(dataOf<string[]>(await setFavourite(b.token, "XAUUSD", true))).toEqual(["XAUUSD"]);
    expect(await favourites(a.token)).toEqual(["BTCUSDT", "EURUSD"]);
    expect(await favourites(b.token)).toEqual(["XAUUSD"]);

    // The Optional tab lists the favourites' rows.
    const optional = await marketList({ symbols: await favourites(a.token) });
    expect(symbolsOf(optional).sort()).toEqual(["BTCUSDT", "EURUSD"]);

    expect(dataOf<string[]>(await setFavourite(a.token, "BTCUSDT", false))).toEqual(["EURUSD"]);
    expect(await favourites(b.token)).toEqual(["XAUUSD"]);

    expectTrpcRefusal(await h.trpc("market.favourites", undefined, undefined, "query"), "LOGIN_REQUIRED", {
      responseCode: ResponseCode.NotLoggedIn,
    });
    expectTrpcRefusal(await setFavourite("not-a-session", "BTCUSDT", true), "LOGIN_REQUIRED", {
      responseCode: ResponseCode.NotLoggedIn,
    });
  });
});

describe("a catalogue of thousands", () => {
  it("still answers market.list and admin.instruments a page at a time", async () => {
    const enabledBefore = await countWhere("enabled");
    const allBefore = await countWhere("true");
    // 3,000 extra instruments across every category, half of them with a spot market, 100 disabled.
    await query(
      h,
      `insert into instruments (symbol, name, category, base, quote, tick_size, lot_size, min_qty,
         contract_size, max_leverage, display_decimals, kinds, trading_hours, reference_price, volatility,
         sort, enabled)
       select 'BULK' || lpad(g::text, 4, '0'), 'Bulk instrument ' || g,
              (array['crypto','forex','stocks','indices','etfs','metals','energy'])[1 + g % 7],
              'BULK' || g, 'USDT', 0.01, 0.01, 0.01, 1, 10, 2,
              case when g % 2 = 0 then array['spot','contract'] else array['contract'] end,
              '{"timeZone":"UTC","sessions":[]}'::jsonb, 10, 0.5, 1000 + g, g > 100
         from generate_series(1, 3000) g`,
    );
    const enabled = enabledBefore + 2900;
    expect(await countWhere("enabled")).toBe(enabled);

    const first = await marketList({ page: 1, page_size: 50 });
    expect(first.items).toHaveLength(50);
    expect(first.total).toBe(enabled);
    const lastPage = Math.ceil(enabled / 50);
    const last = await marketList({ page: lastPage, page_size: 50 });
    expect(last.total).toBe(enabled);
    expect(last.items).toHaveLength(enabled - (lastPage - 1) * 50);
    expect(last.items.at(-1)?.symbol).toBe("BULK3000");
    const middle = await marketList({ page: 30, page_size: 50 });
    expect(middle.items).toHaveLength(50);
    expect(new Set([...symbolsOf(first), ...symbolsOf(middle), ...symbolsOf(last)]).size).toBe(
      100 + last.items.length,
    );

    const crypto = await marketList({ category: "crypto", page: 2, page_size: 50 });
    expect(crypto.items).toHaveLength(50);
    expect(crypto.total).toBe(await countWhere("enabled and category = 'crypto'"));
    expect(crypto.items.every((i) => i.category === "crypto")).toBe(true);

    const exchange = await marketList({ tab: "exchange", page: 5, page_size: 50 });
    expect(exchange.items).toHaveLength(50);
    expect(exchange.total).toBe(await countWhere("enabled and 'spot' = any(kinds)"));

    const search = await marketList({ search: "bulk", page: 3, page_size: 50 });
    expect(search.items).toHaveLength(50);
    expect(search.total).toBe(2900);
    expect(symbolsOf(await marketList({ search: "BULK2999", page_size: 50 }))).toEqual(["BULK2999"]);
    // The disabled ones are not listed, even when asked for by symbol.
    expect(await marketList({ search: "BULK0042" })).toEqual({ items: [], total: 0 });
    expect((await marketList({ symbols: ["BULK0042", "BULK0142"] })).items.map((i) => i.symbol)).toEqual([
      "BULK0142",
    ]);

    // The back office sees every row, disabled ones too.
    const operatorPage = await adminList({ page: 3, page_size: 200 });
    expect(operatorPage.items).toHaveLength(200);
    expect(operatorPage.total).toBe(allBefore + 3000);
    expect((await adminList({ search: "BULK0042" })).items).toMatchObject([
      { symbol: "BULK0042", enabled: false },
    ]);
  });
});
