import { AppError } from "@northstar/domain/errors";
import type { TRPCError } from "@trpc/server";

/**
 * The refusal for a request tRPC turned away before any procedure ran (unreadable JSON, a batch
 * that does not match its paths, an input of the wrong shape without a zod issue, an unknown
 * procedure, a query sent as a mutation): the client's fault, so a translated refusal rather than
 * a "request error" that reads as the server's. Server faults answer null and stay hidden.
 */
export function clientFault(code: TRPCError["code"]): AppError | null {
  switch (code) {
    case "NOT_FOUND":
      return new AppError("UNKNOWN_CALL");
    case "PARSE_ERROR":
    case "BAD_REQUEST":
    case "METHOD_NOT_SUPPORTED":
    case "UNSUPPORTED_MEDIA_TYPE":
    case "PAYLOAD_TOO_LARGE":
    case "UNPROCESSABLE_CONTENT":
      return new AppError("MALFORMED_REQUEST");
    default:
      return null;
  }
}
