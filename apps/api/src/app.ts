import formbody from "@fastify/formbody";
import multipart from "@fastify/multipart";
import { isDatabaseUnavailable } from "@northstar/domain/db";
import { translate } from "@northstar/shared/i18n";
import { toLanguage } from "@northstar/shared/languages";
import { UPLOAD_BYTES_CEILING } from "@northstar/shared/policy";
import { fastifyTRPCPlugin } from "@trpc/server/adapters/fastify";
import Fastify, { type FastifyInstance } from "fastify";
import { attachMarketStreams } from "./binance/market-streams.ts";
import { registerBinanceApi } from "./binance/plugin.ts";
import { attachUserDataSocket } from "./binance/user-stream.ts";
import { registerBusyRefusal } from "./http/address-limit.ts";
import type { AppDeps } from "./http/deps.ts";
import { isLegacyPath, sendLegacyRefusal } from "./http/edge.ts";
import { type LogStream, loggerOptions } from "./http/logger.ts";
import { registerObservability } from "./http/metrics.ts";
import { registerSecurityHeaders } from "./http/security-headers.ts";
import { registerUploadRoutes } from "./http/uploads.ts";
import { registerWeb } from "./http/web-static.ts";
import { registerLegacyApi } from "./legacy/index.ts";
import { attachMarketSocket } from "./realtime/market-socket.ts";
import { registerDirectCalls } from "./trpc/direct.ts";
import { createContextFactory } from "./trpc/init.ts";
import { appRouter } from "./trpc/router.ts";

/** Builds the HTTP app: plugins first, then the legacy API, tRPC, uploads and the web app. */
export async function buildApp(
  deps: AppDeps,
  options: { logStream?: LogStream } = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    logger: loggerOptions(deps.config.logLevel, options.logStream),
    trustProxy: deps.config.trustProxy,
    // Form and JSON bodies; multipart uploads have their own limit below.
    bodyLimit: 10 * 1024 * 1024,
    // Fastify would answer HEAD by running each GET handler, and a legacy GET is an action (HEAD
    // /web/getCode would send a code). Routes that should answer HEAD say so.
    exposeHeadRoutes: false,
    // A batched tRPC GET names every procedure in one path parameter (`/trpc/a.b,c.d,…`); the router's
    // default of 100 characters answered a back-office page of a dozen queries with 414. The web keeps
    // a batch's whole URL under 4,000 characters (apps/web/src/lib/trpc.ts), within every proxy's limit.
    routerOptions: { maxParamLength: 4000 },
  });

  await registerSecurityHeaders(app);
  registerBusyRefusal(app);
  await app.register(formbody);
  // A ceiling only: each upload is read with the limit policy sets at the time (http/uploads.ts).
  await app.register(multipart, { limits: { fileSize: UPLOAD_BYTES_CEILING, files: 1 } });

  // Set before any route: a route keeps the error handler in force when it was added.
  app.setErrorHandler((error: Error & { statusCode?: number; code?: unknown }, request, reply) => {
    const time = Math.floor(Date.now() / 1000);
    if (error.code === "RATE_LIMITED") {
      // Throttled legacy calls still answer HTTP 200 with the envelope, as every legacy call does.
      const query = request.query as Record<string, unknown> | undefined;
      const body = request.body as Record<string, unknown> | undefined;
      const lang = toLanguage(body?.lang ?? query?.lang ?? request.headers.lang);
      return reply.status(200).send({
        code: 1,
        message: translate(lang, "errors.RATE_LIMITED"),
        data: { error: "RATE_LIMITED" },
        time,
      });
    }
    if (isDatabaseUnavailable(error)) {
      // PostgreSQL cannot be reached: a translated "try again", not a server fault (503 outside legacy).
      const query = request.query as Record<string, unknown> | undefined;
      const body = request.body as Record<string, unknown> | undefined;
      const lang = toLanguage(body?.lang ?? query?.lang ?? request.headers.lang);
      const message = translate(lang, "errors.SERVICE_UNAVAILABLE");
      return isLegacyPath(request.url)
        ? reply.status(200).send({ code: 1, message, data: { error: "SERVICE_UNAVAILABLE" }, time })
        : reply.status(503).header("retry-after", "5").send({ code: 1, message, data: null, time });
    }
    const status = error.statusCode ?? 500;
    // A legacy call whose body could not be read still answers the envelope, in the caller's language.
    if (status < 500 && isLegacyPath(request.url)) {
      return sendLegacyRefusal(request, reply, "MALFORMED_REQUEST");
    }
    if (status >= 500) {
      request.log.error({ err: error }, "request failed");
      return reply.status(status).send({ code: 500, message: "request error", data: null, time });
    }
    return reply.status(status).send({ code: 1, message: error.message, data: null, time });
  });

  registerLegacyApi(app, deps);
  await app.register(async (trpc) => {
    // tRPC answers with a Fetch Response whose body is a stream, which Fastify would send chunked,
    // in several socket writes. The answers are small JSON (no streaming links are used): read each
    // whole and send it in one write with its length, a large share of a request's cost under load.
    trpc.addHook("onSend", async (_request, reply, payload) => {
      if (!(payload instanceof Response)) {
        return payload;
      }
      reply.code(payload.status);
      for (const [name, value] of payload.headers) {
        reply.header(name, value);
      }
      return Buffer.from(await payload.arrayBuffer());
    });
    await trpc.register(fastifyTRPCPlugin, {
      prefix: "/trpc",
      trpcOptions: { router: appRouter, createContext: createContextFactory(deps) },
    });
    // Placing and cancelling orders skip the adapter's Fetch emulation, answering identically.
    await registerDirectCalls(trpc, deps);
  });
  await registerBinanceApi(app, deps);
  registerUploadRoutes(app, deps);
  app.get("/health", { exposeHeadRoute: true }, async () => ({ ok: true }));

  const marketSocket = attachMarketSocket(app, deps);
  // preClose: open sockets would otherwise keep the server's close waiting for them.
  app.addHook("preClose", () => marketSocket.close());
  registerObservability(app, deps, () => marketSocket.stats());
  const userDataSocket = attachUserDataSocket(app, deps);
  app.addHook("preClose", () => userDataSocket.close());
  const marketStreams = attachMarketStreams(app, deps);
  app.addHook("preClose", () => marketStreams.close());

  const web = await registerWeb(app, deps.config.webDist);
  app.setNotFoundHandler((request, reply) => {
    if (isLegacyPath(request.url) && request.method === "HEAD") {
      // Legacy calls are actions; HEAD is not a way to run one (exposeHeadRoutes above).
      return reply.status(405).header("allow", "GET, POST").send();
    }
    if (isLegacyPath(request.url)) {
      return sendLegacyRefusal(request, reply, "UNKNOWN_CALL");
    }
    const apiPath = /^\/(trpc|uploads|ws|api)(\/|\?|$)/.test(request.url);
    if (web && (request.method === "GET" || request.method === "HEAD") && !apiPath) {
      return reply.type("text/html").sendFile("index.html");
    }
    return reply
      .status(404)
      .send({ code: 404, message: "not found", data: null, time: Math.floor(Date.now() / 1000) });
  });

  return app;
}
