import { randomBytes } from "node:crypto";
import http from "node:http";

/*
 * The spot benchmarks' load generator: `spot.place` requests over keep-alive connections, a closed
 * loop (a fixed number in flight) or an open loop (a fixed rate). The API benchmark and the floor
 * benchmark (order-floor.ts) send the same requests through it, so their load generator's CPU is the
 * same work.
 */

/** A limit order around 60000 (BTCUSDT) or 3000 (ETHUSDT): 30% cross the spread. */
export function orderBody(random: () => number) {
  const btc = random() < 0.5;
  const mid = btc ? 60000 : 3000;
  const side = random() < 0.5 ? "buy" : "sell";
  const crossing = random() < 0.3;
  const offset = Math.floor(random() * mid * 0.005 * 100) / 100;
  const away = crossing ? -offset : offset + 0.01;
  const price = (side === "buy" ? mid - away : mid + away).toFixed(2);
  const lots = 1 + Math.floor(random() * 200);
  const quantity = btc ? (lots / 100000).toFixed(5) : (lots / 10000).toFixed(4);
  return JSON.stringify({ symbol: btc ? "BTCUSDT" : "ETHUSDT", side, type: "limit", price, quantity });
}

// node:http with keep-alive: fetch costs the load generator several times more CPU per request,
// and the load generator shares the two cores with the API, the worker and PostgreSQL.
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

/** Keys unique across runs against one database (the key is kept on the order row, unique per user). */
const KEY_SALT = randomBytes(6).toString("base64url");
let orderSeq = 0;

export function place(port: number, token: string, body: string): Promise<boolean> {
  return new Promise((resolve) => {
    const request = http.request(
      {
        agent,
        host: "127.0.0.1",
        port,
        method: "POST",
        path: "/trpc/spot.place",
        headers: {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
          token,
          // Every order is a new intent: a money action is refused without a key.
          "idempotency-key": `b${(++orderSeq).toString(36)}${KEY_SALT}`,
        },
      },
      (response) => {
        response.resume();
        response.on("end", () => resolve(response.statusCode === 200));
      },
    );
    request.on("error", () => resolve(false));
    request.end(body);
  });
}

/** Closed loop: `concurrency` requests always in flight for `seconds`. */
export async function closedLoop(
  port: number,
  concurrency: number,
  tokens: string[],
  seconds: number,
  random: () => number,
) {
  const latencies: number[] = [];
  let failed = 0;
  const end = performance.now() + seconds * 1000;
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        const token = tokens[next++ % tokens.length] as string;
        const started = performance.now();
        if (await place(port, token, orderBody(random))) {
          latencies.push(performance.now() - started);
        } else {
          failed++;
        }
      }
    }),
  );
  return { latencies, failed, seconds };
}

/** Open loop: requests started at a fixed rate whatever the answers, so queueing shows in latency. */
export async function openLoop(
  port: number,
  tokens: string[],
  rate: number,
  seconds: number,
  random: () => number,
) {
  const latencies: number[] = [];
  let failed = 0;
  const inFlight: Promise<void>[] = [];
  const started = performance.now();
  const total = Math.floor(rate * seconds);
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) {
      await new Promise((r) => setTimeout(r, wait));
    }
    const token = tokens[i % tokens.length] as string;
    const sent = performance.now();
    inFlight.push(
      place(port, token, orderBody(random)).then((ok) => {
        if (ok) {
          latencies.push(performance.now() - sent);
        } else {
          failed++;
        }
      }),
    );
  }
  await Promise.all(inFlight);
  return { latencies, failed, seconds: (performance.now() - started) / 1000 };
}
