import { readdirSync, readFileSync } from "node:fs";

/*
 * Serves Yahoo Finance responses recorded from the real service (fixtures/yahoo, see SOURCES.md there)
 * to the yahoo-finance2 library through its `fetch` option: no network. Tests only.
 */

interface Recording {
  request: { url: string };
  response: {
    status: number;
    statusText: string;
    headers: Record<string, string | string[]>;
    bodyJson?: unknown;
    bodyText?: string;
  };
}

const DIR = new URL("./fixtures/yahoo/", import.meta.url);

export function loadRecording(name: string): Recording {
  return JSON.parse(readFileSync(new URL(name, DIR), "utf8")) as Recording;
}

/** The recorded quote objects by Yahoo symbol (each file holds one symbol's quote). */
function recordedQuotes(): Map<string, unknown> {
  const quotes = new Map<string, unknown>();
  for (const file of readdirSync(DIR).filter((f) => f.startsWith("quote-"))) {
    const body = loadRecording(file).response.bodyJson as { quoteResponse: { result: { symbol: string }[] } };
    for (const quote of body.quoteResponse.result) {
      quotes.set(quote.symbol, quote);
    }
  }
  return quotes;
}

function toResponse(recording: Recording["response"], drop: string[] = []): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(recording.headers)) {
    if (drop.includes(name)) {
      continue;
    }
    for (const v of Array.isArray(value) ? value : [value]) {
      headers.append(name, v);
    }
  }
  const body =
    recording.bodyJson === undefined ? (recording.bodyText ?? "") : JSON.stringify(recording.bodyJson);
  return new Response(recording.status === 204 ? null : body, {
    status: recording.status,
    statusText: recording.statusText,
    headers,
  });
}

export interface RecordedYahoo {
  fetch: typeof fetch;
  /** Every URL the library asked for, in order. */
  requests: string[];
  /** While set, every request fails as if the network were down. */
  down: boolean;
}

/**
 * A fetch answering from the recordings:
 * - the crumb handshake: the recorded quote page (its cookie; the consent redirect it also carried is
 *   left out, as the consent pages are not recorded) and the recorded crumb;
 * - v7 quotes: the recorded quote of each requested symbol, in one response as Yahoo batches them;
 * - v8 charts: the daily chart recorded for the symbol (`chart-<symbol>-*.json`), daily requests only.
 * Anything else is a 404, so a request the recordings do not cover fails loudly.
 */
export function recordedYahoo(): RecordedYahoo {
  const quotes = recordedQuotes();
  const charts = readdirSync(DIR).filter((f) => f.startsWith("chart-"));
  const state: RecordedYahoo = {
    requests: [],
    down: false,
    fetch: async (input) => {
      const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
      state.requests.push(url.href);
      if (state.down) {
        throw new TypeError("fetch failed");
      }
      if (url.href === "https://finance.yahoo.com/quote/AAPL") {
        return toResponse(loadRecording("getCrumb-quote-AAPL.json").response, ["location"]);
      }
      if (url.pathname === "/v1/test/getcrumb") {
        return toResponse(loadRecording("getCrumb-getcrumb.json").response);
      }
      if (url.pathname === "/v7/finance/quote") {
        const symbols = (url.searchParams.get("symbols") ?? "").split(",");
        const result = symbols.map((s) => quotes.get(s)).filter((q) => q !== undefined);
        const recorded = loadRecording("quote-AAPL.json").response;
        return toResponse({ ...recorded, bodyJson: { quoteResponse: { result, error: null } } });
      }
      const chart = url.pathname.match(/^\/v8\/finance\/chart\/(.+)$/);
      if (chart && url.searchParams.get("interval") === "1d") {
        const symbol = decodeURIComponent(chart[1] ?? "");
        const file = charts.find((f) => f.startsWith(`chart-${symbol}-`));
        if (file) {
          return toResponse(loadRecording(file).response);
        }
      }
      return new Response(JSON.stringify({ error: "not recorded" }), {
        status: 404,
        statusText: "Not Found",
      });
    },
  };
  return state;
}
