import { AppError, isAppError } from "@northstar/domain/errors";
import { type OnceRecorder, runOnce } from "@northstar/domain/idempotency";
import { type Authenticated, authenticate } from "@northstar/domain/identity";
import { ResponseCode } from "@northstar/shared/errors";
import { translate } from "@northstar/shared/i18n";
import { type Language, toLanguage } from "@northstar/shared/languages";
import type { FastifyInstance, FastifyRequest, RouteShorthandOptions } from "fastify";
import type { z } from "zod";
import type { AppDeps } from "../http/deps.ts";
import { nulByteRefusal, toRefusal } from "../http/errors.ts";
import { clientIp, readToken } from "../http/request.ts";

/** The JSON envelope of every legacy answer (DESIGN.md section 5). */
export interface Envelope {
  code: number;
  message: string;
  data: unknown;
  time: number;
  event?: string;
  title?: string;
}

export interface LegacyContext {
  deps: AppDeps;
  lang: Language;
  /** Present when the call requires a session, or allows one and a valid token was sent. */
  auth: Authenticated | undefined;
  ip: string;
  userAgent: string;
  request: FastifyRequest;
  /** For a call with `once`: records the answer in the action's own transaction (see runOnce). */
  once?: OnceRecorder;
}

export interface LegacyCall<S extends z.ZodType> {
  /** The path after `web/`, exactly as the spec names it. */
  name: string;
  auth: "required" | "optional" | "none";
  /** Names the action for the client's message rules (login, register, buy, buyProfit, createOrder). */
  event?: string;
  /**
   * Names a money action: sent with an `rtoken` by a signed-in user, it runs once per (user, rtoken)
   * and a resend answers the first `data` again. Its handler passes `ctx.once` to the domain action
   * and answers that action's result as `data`, which is what the action records.
   */
  once?: string;
  input: S;
  handle(
    ctx: LegacyContext,
    input: z.output<S>,
  ): Promise<{ data?: unknown; messageKey?: string; code?: number }>;
}

export function defineLegacyCall<S extends z.ZodType>(call: LegacyCall<S>): LegacyCall<S> {
  return call;
}

const RTOKEN = /^[A-Za-z0-9_-]{6,16}$/;
const now = () => Math.floor(Date.now() / 1000);

/**
 * Registers a legacy call at /web/<name> for GET (query string) and POST (form, JSON or multipart
 * fields). Every answer is HTTP 200 with the envelope; refusals carry code 1, 2000 or 1000 and a
 * message in the request's `lang`.
 */
export function registerLegacyCall<S extends z.ZodType>(
  app: FastifyInstance,
  deps: AppDeps,
  call: LegacyCall<S>,
  routeOptions: RouteShorthandOptions = {},
) {
  const handler = async (request: FastifyRequest): Promise<Envelope> => {
    const fields = readFields(request);
    const lang = toLanguage(fields.lang ?? request.headers.lang);
    const withEvent = (e: Omit<Envelope, "time">): Envelope => ({
      ...e,
      time: now(),
      ...(call.event ? { event: call.event } : {}),
    });
    try {
      const nul = nulByteRefusal(fields);
      if (nul) {
        throw nul;
      }
      if (fields.rtoken !== undefined && !RTOKEN.test(fields.rtoken)) {
        throw new AppError("FIELD_INVALID", {}, "rtoken");
      }
      const token = readToken(request, fields);
      let auth: Authenticated | undefined;
      if (call.auth === "required") {
        auth = await authenticate(deps.db, token);
      } else if (call.auth === "optional" && token) {
        // A stale token makes an optional call anonymous; a session the server ended still says so.
        auth = await authenticate(deps.db, token).catch((error: unknown) => {
          if (isAppError(error) && error.code !== "LOGIN_REQUIRED") {
            throw error;
          }
          return undefined;
        });
      }
      const input = call.input.parse(fields);
      const run = (once?: OnceRecorder) =>
        call.handle(
          {
            deps,
            lang,
            auth,
            ip: clientIp(request),
            userAgent: String(request.headers["user-agent"] ?? ""),
            request,
            // What the action records is the envelope's data, as a resend will answer it.
            once: once && { record: (tx, answer) => once.record(tx, { data: answer }) },
          },
          input,
        );
      const rtoken = fields.rtoken;
      const result =
        call.once && auth && rtoken !== undefined
          ? await runOnce(
              deps.db,
              {
                userId: auth.user.id,
                key: rtoken,
                action: call.once,
                input: input as Record<string, unknown>,
                field: "rtoken",
              },
              run,
            )
          : await run();
      return withEvent({
        code: result.code ?? ResponseCode.Ok,
        message: translate(lang, result.messageKey ?? "api.ok"),
        data: result.data ?? null,
      });
    } catch (error) {
      const refusal = toRefusal(error, lang);
      if (refusal.code === ResponseCode.ServerError) {
        request.log.error({ err: error, call: call.name }, "legacy call failed");
      }
      return withEvent({
        code: refusal.code,
        message: refusal.message,
        data: refusal.field
          ? { field: refusal.field, error: refusal.errorCode }
          : { error: refusal.errorCode },
      });
    }
  };
  app.get(`/web/${call.name}`, routeOptions, handler);
  app.post(`/web/${call.name}`, routeOptions, handler);
}

/** Query string and body fields as strings; body fields win over the query. */
function readFields(request: FastifyRequest): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const source of [request.query, request.body]) {
    if (source && typeof source === "object") {
      for (const [key, value] of Object.entries(source as Record<string, unknown>)) {
        if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") {
          out[key] = String(value);
        }
      }
    }
  }
  return out;
}
