import { ZCancelOrderRequestSchema, ZPlaceOrderRequestSchema } from "@northstar/shared/contracts/spot";
import { fastifyRequestHandler } from "@trpc/server/adapters/fastify";
import {
  getErrorShape,
  getHTTPStatusCode,
  getTRPCErrorFromUnknown,
  TRPCError,
  transformTRPCResponse,
} from "@trpc/server/unstable-core-do-not-import";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { z } from "zod";
import type { AppDeps } from "../http/deps.ts";
import {
  asRefusal,
  createContextFactory,
  type Entry,
  enter,
  moneyEntry,
  signedIn,
  type TrpcContext,
} from "./init.ts";
import { appRouter } from "./router.ts";
import { cancelSpotOrder, placeSpotOrder } from "./routers/spot/router.ts";

/** A call answered directly: its procedure's entry, input schema and handler, as the router has them. */
interface DirectCall<Added, Schema extends z.ZodType> {
  entry: Entry<Added>;
  input: Schema;
  run: (ctx: TrpcContext & Added, input: z.output<Schema>) => Promise<unknown>;
}
const direct = <Added, Schema extends z.ZodType>(call: DirectCall<Added, Schema>) =>
  call as DirectCall<unknown, z.ZodType>;

/**
 * The hot mutations answered directly: an order placed or cancelled on the trade screen. Each names
 * the same entry, schema and handler as its procedure in the router (routers/spot/router.ts).
 */
const DIRECT: Record<string, DirectCall<unknown, z.ZodType>> = {
  "spot.place": direct({ entry: moneyEntry, input: ZPlaceOrderRequestSchema, run: placeSpotOrder }),
  "spot.cancel": direct({ entry: signedIn, input: ZCancelOrderRequestSchema, run: cancelSpotOrder }),
};

/** What the tRPC adapter sends with every answer (see resolveResponse in @trpc/server). */
const VARY = "trpc-accept, accept";

/**
 * Answers the hot mutations without the adapter's Fetch emulation (a Request, its body stream and
 * abort signals per call, a Response read back for Fastify) and without tRPC's procedure chain (a
 * closure and copies of the context and options per level), together a large share of an order's CPU
 * under load. The steps are the procedure's own, in its order: the entry (`enter`: NUL bytes,
 * sign-in, Idempotency-Key), the input parsed by its schema (a failure is BAD_REQUEST, as tRPC makes
 * it), its handler, refusals translated by `asRefusal`; the answer is built as the adapter builds it
 * (status, headers, `{ result: { data } }` or the formatted `{ error }`). Tests send every kind of
 * request both ways and compare the answers byte for byte. Anything but a plain call (a batch, a
 * query string, another content type, a streaming accept, a body that is not JSON, none) goes to the
 * adapter itself, so every request answers exactly as tRPC would.
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
          json = { result: { data: await answer(call, ctx, input.value) } };
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

/** A direct call's steps, in the order its procedure takes them. */
async function answer(
  call: DirectCall<unknown, z.ZodType>,
  ctx: TrpcContext,
  raw: unknown,
): Promise<unknown> {
  const added = await enter(ctx, raw, call.entry);
  let input: unknown;
  try {
    input = call.input.parse(raw);
  } catch (cause) {
    throw new TRPCError({ code: "BAD_REQUEST", cause });
  }
  try {
    return await call.run({ ...ctx, ...(added as object) }, input);
  } catch (cause) {
    throw asRefusal(cause) ?? cause;
  }
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
