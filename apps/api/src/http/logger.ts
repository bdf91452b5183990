import type { FastifyRequest } from "fastify";

/** Where log lines go: stdout by default, a capturing stream in tests. */
export interface LogStream {
  write(line: string): void;
}

// Old clients still send `token` in the query string; whatever reaches the server must not reach the log.
const SECRET_PARAM = /([?&](?:r|wap_)?token=)[^&#]*/gi;

/** The URL with the values of `token`, `rtoken` and `wap_token` replaced. */
export function redactUrl(url: string): string {
  return url.replace(SECRET_PARAM, "$1[redacted]");
}

/**
 * Logger options: the request serializer writes the URL without secrets, and redaction removes
 * session headers and any `token` field that a body or an error object carries.
 */
export function loggerOptions(level: string, stream?: LogStream) {
  return {
    level,
    ...(stream ? { stream } : {}),
    redact: {
      paths: [
        "req.headers.authorization",
        "req.headers.token",
        'req.headers["x-operator-token"]',
        "token",
        "rtoken",
        "*.token",
        "*.rtoken",
        "*.password",
        "body.*.token",
      ],
      censor: "[redacted]",
    },
    serializers: {
      req(request: FastifyRequest) {
        return {
          method: request.method,
          url: redactUrl(request.url),
          host: request.host,
          remoteAddress: request.ip,
          remotePort: request.socket?.remotePort,
        };
      },
    },
  };
}
