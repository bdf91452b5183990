/**
 * Whether an error says PostgreSQL cannot be reached (refused, reset, shutting down, starting up,
 * connection lost or never made) rather than that a statement failed: the caller may answer "try
 * again" instead of a server fault. Drizzle wraps the driver's error, so the cause chain is walked.
 */
const UNAVAILABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EHOSTUNREACH",
  // SQLSTATE class 08 (connection exception) and the operator-intervention shutdowns.
  "08000",
  "08001",
  "08003",
  "08004",
  "08006",
  "57P01",
  "57P02",
  "57P03",
]);
const UNAVAILABLE_TEXT =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended unexpectedly/i;

export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 6; depth++) {
    const { code, message, cause } = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (
      (typeof code === "string" && UNAVAILABLE_CODES.has(code)) ||
      (typeof message === "string" && UNAVAILABLE_TEXT.test(message))
    ) {
      return true;
    }
    current = cause;
  }
  return false;
}
