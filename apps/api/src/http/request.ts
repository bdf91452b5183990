import type { FastifyRequest } from "fastify";

/** The session token: the `token` field, a `token` header, or `Authorization: Bearer`. */
export function readToken(
  request: FastifyRequest,
  fields: Record<string, string | undefined> = {},
): string | undefined {
  const fromField = fields.token;
  if (fromField) {
    return fromField;
  }
  const header = request.headers.token;
  if (typeof header === "string" && header) {
    return header;
  }
  const auth = request.headers.authorization;
  if (auth?.startsWith("Bearer ")) {
    return auth.slice(7) || undefined;
  }
  return undefined;
}

export function clientIp(request: FastifyRequest): string {
  return request.ip;
}
