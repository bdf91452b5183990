import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ChainConfig } from "@northstar/domain/chain";
import { createDb } from "@northstar/domain/db";
import { TotpKeyring, useTotpKeyring } from "@northstar/domain/identity";
import { createFixedPriceProvider } from "@northstar/domain/markets";
import { useMessagePublisher } from "@northstar/domain/messages";
import { createMailTransport, createQueueNotifier, createSmsProvider } from "@northstar/domain/notifications";
import { seedDatabase } from "@northstar/domain/seed";
import { startNotificationsWorker } from "@northstar/worker/processors";
import type { FastifyInstance } from "fastify";
import { Redis } from "ioredis";
import { createTestDatabase, startMailbox } from "../../../../packages/domain/src/test-support/index.ts";
import { buildApp } from "../app.ts";
import type { AppDeps } from "../http/deps.ts";
import type { LogStream } from "../http/logger.ts";
import type { Envelope } from "../legacy/define.ts";

/**
 * One integration-test world per test file: its own database cloned from the migrated template,
 * its own Redis key prefix, a real SMTP server, the real notifications worker and the real app,
 * reached through `app.inject`.
 */
export async function createHarness(
  options: {
    authRatePerMinute?: number;
    trustProxy?: boolean;
    /** Receives the app's log lines (at level info) instead of silencing them. */
    logStream?: LogStream;
    /** A built web app to serve; none by default. */
    webDist?: string;
    /** The clock of the per-address limits (ms since the epoch); Date.now by default. */
    clock?: () => number;
    /** A watched EVM chain (a test node); none by default, so crypto deposits take the manual path. */
    chain?: ChainConfig;
  } = {},
) {
  const database = await createTestDatabase();
  const { db, pool, close: closeDb } = createDb(database.url, { max: 5 });
  // pg's pool.end() resolves before its sockets have closed, so the forced DROP DATABASE at the end
  // can terminate a connection still saying goodbye; that FATAL is expected then, not a test failure.
  pool.on("error", () => {});
  await seedDatabase(db);
  // A key of this test file's own for Google Authenticator secrets, as the server sets one at boot.
  useTotpKeyring(new TotpKeyring([randomBytes(32)]));
  const prefix = `test:${randomBytes(4).toString("hex")}`;
  const redis = new Redis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379", { maxRetriesPerRequest: null });
  const mailbox = await startMailbox();
  const smsLog: string[] = [];
  const worker = startNotificationsWorker(redis, prefix, {
    mail: createMailTransport(mailbox.url, () => {}),
    sms: createSmsProvider("log", (line) => smsLog.push(line)),
    mailFrom: "Northstar <no-reply@northstar.test>",
    siteName: "Northstar",
  });
  const notifier = createQueueNotifier(redis, prefix);
  // As createDeps does for the server.
  useMessagePublisher(db, redis, prefix);
  const uploadDir = await mkdtemp(join(tmpdir(), "northstar-uploads-"));
  const deps: AppDeps = {
    db,
    redis,
    notifier,
    prices: createFixedPriceProvider(),
    chain: options.chain ?? null,
    clock: options.clock,
    config: {
      uploadDir,
      publicUrl: "http://localhost:3000",
      webDist: options.webDist ?? "",
      redisPrefix: prefix,
      trustProxy: options.trustProxy ?? false,
      authRatePerMinute: options.authRatePerMinute ?? 1000,
      logLevel: options.logStream ? "info" : "silent",
    },
  };
  const app: FastifyInstance = await buildApp(deps, { logStream: options.logStream });

  /** Calls a legacy endpoint with form-encoded fields (POST) or a query string (GET). */
  async function call(
    name: string,
    fields: Record<string, string> = {},
    method: "GET" | "POST" = "POST",
  ): Promise<Envelope> {
    const body = new URLSearchParams(fields).toString();
    const response =
      method === "POST"
        ? await app.inject({
            method,
            url: `/web/${name}`,
            payload: body,
            headers: { "content-type": "application/x-www-form-urlencoded" },
          })
        : await app.inject({ method, url: `/web/${name}?${body}` });
    if (response.statusCode !== 200) {
      throw new Error(`HTTP ${response.statusCode} from web/${name}: ${response.body}`);
    }
    return response.json() as Envelope;
  }

  /**
   * Calls a tRPC procedure over HTTP, as the web app does: a mutation goes with a fresh
   * Idempotency-Key (money actions are refused without one), or the given one, or none with `null`.
   */
  async function trpc(
    path: string,
    input: unknown,
    token?: string,
    kind: "query" | "mutation" = "mutation",
    options: { idempotencyKey?: string | null } = {},
  ) {
    const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
    const key =
      options.idempotencyKey === undefined ? randomBytes(12).toString("base64url") : options.idempotencyKey;
    if (kind === "mutation" && key !== null) {
      headers["idempotency-key"] = key;
    }
    const response =
      kind === "mutation"
        ? await app.inject({
            method: "POST",
            url: `/trpc/${path}`,
            payload: input === undefined ? "" : JSON.stringify(input),
            headers: { ...headers, "content-type": "application/json" },
          })
        : await app.inject({
            method: "GET",
            url: `/trpc/${path}${input === undefined ? "" : `?input=${encodeURIComponent(JSON.stringify(input))}`}`,
            headers,
          });
    return {
      status: response.statusCode,
      body: response.json() as {
        result?: { data: unknown };
        error?: { message: string; data: { responseCode: number; errorCode: string; field: string | null } };
      },
    };
  }

  let emailSeq = 0;
  /** Registers a user by email through getCode and userRegister, reading the code from the mailbox. */
  async function registerByEmail(overrides: Record<string, string> = {}) {
    const email = overrides.account ?? `user${++emailSeq}-${randomBytes(3).toString("hex")}@example.com`;
    const sent = await call("getCode", { type: "email", account: email, purpose: "register" });
    if (sent.code !== 0) {
      throw new Error(`getCode failed: ${sent.message}`);
    }
    const code = await mailbox.waitForCode(email);
    const password = overrides.password ?? "secret123";
    const res = await call("userRegister", {
      type: "email",
      account: email,
      password,
      confirm_password: password,
      code,
      nationality: "GB",
      agree: "1",
      ...overrides,
    });
    if (res.code !== 0) {
      throw new Error(`register failed: ${res.message}`);
    }
    return { email, password, token: (res.data as { token: string }).token };
  }

  return {
    app,
    deps,
    db,
    redis,
    /** For a child process (the operator CLI) that must reach this test's database and Redis keys. */
    databaseUrl: database.url,
    redisPrefix: prefix,
    mailbox,
    smsLog,
    call,
    trpc,
    registerByEmail,
    async close() {
      await app.close();
      await worker.close();
      await notifier.close();
      await mailbox.close();
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) {
        await redis.del(...keys);
      }
      redis.disconnect();
      await closeDb();
      await database.drop();
      await rm(uploadDir, { recursive: true, force: true });
    },
  };
}

export type Harness = Awaited<ReturnType<typeof createHarness>>;
