import { fastifyRequestHandler } from "@trpc/server/adapters/fastify";
import {
  getErrorShape,
  getHTTPStatusCode,
  getTRPCErrorFromUnknown,
  transformTRPCResponse,
} from "@trpc/server/unstable-core-do-not-import";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { AppDeps } from "../http/deps.ts";
import { createCallerFactory, createContextFactory } from "./init.ts";
import { appRouter } from "./router.ts";

const createCaller = createCallerFactory(appRouter);
type Caller = ReturnType<typeof createCaller>;

/** The hot mutations answered directly: an order placed or cancelled on the trade screen. */
const DIRECT = {
  "spot.place": (caller: Caller, input: unknown) => caller.spot.place(input as never),
  "spot.cancel": (caller: Caller, input: unknown) => caller.spot.cancel(input as never),
} as const;

/** What the tRPC adapter sends with every answer (see resolveResponse in @trpc/server). */
const VARY = "trpc-accept, accept";

/**
 * Answers the hot mutations without the adapter's Fetch emulation (a Request, its body stream and
 * abort signals per call, a Response read back for Fastify), a large share of an order's CPU under
 * load. The same procedure runs through a server-side caller: the same context, authentication,
 * input validation, middleware and domain refusals, and the answer is built as the adapter builds it
 * (status, headers, `{ result: { data } }` or the formatted `{ error }`). Anything but a plain call
 * (a batch, a query string, another content type, a streaming accept, a body that is not JSON, none) goes
 * to the adapter itself, so every request answers exactly as tRPC would.
 */
export async function registerDirectCalls(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const createContext = createContextFactory(deps);
  const config = appRouter._def._config;
  await app.register(async (direct) => {
    // As the tRPC plugin reads bodies: JSON as text (parsed here), multipart left to the adapter.
    direct.removeContentTypeParser("application/json");
    direct.addContentTypeParser("application/json", { parseAs: "string" }, (_request, body, done) =>
      done(null, body),
    );
    direct.removeContentTypeParser("multipart/form-data");
    direct.addContentTypeParser("multipart/form-data", {}, (_request, body, done) => done(null, body));
    for (const [path, call] of Object.entries(DIRECT)) {
      direct.post(`/trpc/${path}`, async (request, reply) => {
        const input = plainInput(request);
        if (input === undefined) {
          return adapter(request, reply, path, deps);
        }
        const ctx = createContext({ req: request, res: reply, info: undefined as never });
        let json: unknown;
        try {
          json = { result: { data: await call(createCaller(ctx), input.value) } };
        } catch (cause) {
          const error = getTRPCErrorFromUnknown(cause);
          json = {
            error: getErrorShape({ config, ctx, error, input: input.value, path, type: "mutation" }),
          };
        }
        return reply
          .code(getHTTPStatusCode(json as never))
          .header("vary", VARY)
          .header("content-type", "application/json")
          .send(Buffer.from(JSON.stringify(transformTRPCResponse(config, json as never))));
      });
    }
  });
}

/** The input of a plain JSON call, or undefined when the request is anything else. */
function plainInput(request: FastifyRequest): { value: unknown } | undefined {
  const type = request.headers["content-type"];
  if (
    request.url.includes("?") ||
    typeof request.body !== "string" ||
    typeof type !== "string" ||
    !type.toLowerCase().startsWith("application/json") ||
    request.headers["trpc-accept"] !== undefined ||
    String(request.headers.accept ?? "").includes("jsonl")
  ) {
    return undefined;
  }
  try {
    return { value: JSON.parse(request.body) };
  } catch {
    return undefined;
  }
}

function adapter(request: FastifyRequest, reply: FastifyReply, path: string, deps: AppDeps) {
  return fastifyRequestHandler({
    router: appRouter,
    createContext: createContextFactory(deps),
    req: request,
    res: reply,
    path,
  });
}
