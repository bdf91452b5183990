import type { IncomingMessage } from "node:http";
import type { Socket } from "node:net";
import { createDb } from "@northstar/domain/db";
import { Redis } from "ioredis";
import { env as loadEnv } from "../env.ts";
import { createMarketSocketServer } from "./market-socket.ts";
import type { SocketLog, UpgradeMessage } from "./socket-types.ts";

/**
 * A child process of the API serving market-socket connections handed over by the parent
 * (socket-processes.ts). It has its own Redis and database connections; it serves nothing else.
 */
const env = loadEnv();
const { db, close: closeDb } = createDb(env.DATABASE_URL, { max: 4 });
const redis = new Redis(env.REDIS_URL, { maxRetriesPerRequest: null });
const quiet = env.LOG_LEVEL === "silent" || env.LOG_LEVEL === "fatal";
const line = (level: string, details: object, message: string) => {
  const err = (details as { err?: unknown }).err;
  const extra = err instanceof Error ? { err: { message: err.message, stack: err.stack } } : details;
  process.stderr.write(
    `${JSON.stringify({ level, time: Date.now(), pid: process.pid, ...extra, msg: message })}\n`,
  );
};
const log: SocketLog = {
  warn: (details, message) => {
    if (!quiet && env.LOG_LEVEL !== "error") {
      line("warn", details, message);
    }
  },
  error: (details, message) => {
    if (!quiet) {
      line("error", details, message);
    }
  },
};
const redisPrefix = process.argv[2] || env.REDIS_PREFIX;
const server = createMarketSocketServer({ db, redis, config: { redisPrefix } }, log);

process.on("message", (message: UpgradeMessage, socket?: Socket) => {
  if (message?.type !== "upgrade" || !socket) {
    return;
  }
  const req = { method: message.method, url: message.url, headers: message.headers } as IncomingMessage;
  server.handleUpgrade(req, socket, Buffer.from(message.head, "base64"));
});

let stopping = false;
async function stop() {
  if (stopping) {
    return;
  }
  stopping = true;
  await server.close();
  redis.disconnect();
  await closeDb();
  process.exit(0);
}
process.on("SIGTERM", stop);
process.on("SIGINT", () => {}); // the parent decides when to stop (it forwards a terminal's Ctrl-C as SIGTERM)
process.on("disconnect", stop);
process.send?.({ type: "ready" });
