import { AppError } from "@northstar/domain/errors";
import type { ErrorCode } from "@northstar/shared/errors";
import { type Language, toLanguage } from "@northstar/shared/languages";
import type { FastifyReply, FastifyRequest } from "fastify";
import { toRefusal } from "./errors.ts";

/** A legacy `web/*` path: every answer there is HTTP 200 with the envelope, refusals included. */
export const isLegacyPath = (url: string) => /^\/web(\/|\?|$)/.test(url);

/** The request's language from the body, the query or the `lang` header, whichever was readable. */
export function requestLanguage(request: FastifyRequest): Language {
  const field = (source: unknown) =>
    source && typeof source === "object" ? (source as Record<string, unknown>).lang : undefined;
  return toLanguage(field(request.body) ?? field(request.query) ?? request.headers.lang);
}

/** Answers a legacy call that never reached its handler with the envelope of a refusal. */
export function sendLegacyRefusal(request: FastifyRequest, reply: FastifyReply, code: ErrorCode) {
  const refusal = toRefusal(new AppError(code), requestLanguage(request));
  return reply.status(200).send({
    code: refusal.code,
    message: refusal.message,
    data: { error: refusal.errorCode },
    time: Math.floor(Date.now() / 1000),
  });
}
