import { ERROR_CODES, type ErrorCode } from "@northstar/shared/errors";

/**
 * The one error type the domain throws for a business refusal. `code` is a documented error code
 * (packages/shared/src/errors.ts); `params` fill the translated message's placeholders.
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly params: Record<string, string | number>;
  /** The form field the refusal is about, when there is one. */
  readonly field: string | undefined;

  constructor(code: ErrorCode, params: Record<string, string | number> = {}, field?: string) {
    super(code);
    this.name = "AppError";
    this.code = code;
    this.params = params;
    this.field = field;
  }

  get responseCode(): number {
    return ERROR_CODES[this.code];
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
