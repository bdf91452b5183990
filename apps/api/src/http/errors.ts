import { isDatabaseUnavailable } from "@northstar/domain/db";
import { AppError, isAppError } from "@northstar/domain/errors";
import { errorMessageKey, isErrorCode, ResponseCode } from "@northstar/shared/errors";
import { hasKey, translate } from "@northstar/shared/i18n";
import type { Language } from "@northstar/shared/languages";
import { ZodError } from "zod";

/** Wire names whose catalog entry is named differently. */
const FIELD_ALIASES: Record<string, string> = {
  agree: "agreement",
  login_password: "password",
  mode: "type",
};

/**
 * A form field's key under `fields.` in the catalogs: the last named segment of its path
 * (`answers.0.answer` → `fields.answer`), through the aliases, snake_case to camelCase.
 */
export function fieldKey(field: string): string {
  const name =
    field
      .split(".")
      .filter((part) => !/^\d+$/.test(part))
      .pop() ?? field;
  const wire = FIELD_ALIASES[name] ?? name;
  return `fields.${wire.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())}`;
}

/** Codes whose text names a field: without one, a refusal would show its `{{field}}` placeholder. */
const FIELD_NAMING = new Set(["FIELD_INVALID", "FIELD_REQUIRED"]);

/**
 * Turns the first zod issue into the domain error it names, or FIELD_INVALID for that field. An issue
 * with no field (the input is not an object at all, or missing) is an unreadable request: there is no
 * field to name, and "{{field}} is not valid" would show its placeholder.
 */
export function fromZodError(error: ZodError): AppError {
  const issue = error.issues[0];
  const field = issue?.path.map(String).join(".") || undefined;
  if (issue && isErrorCode(issue.message) && (field || !FIELD_NAMING.has(issue.message))) {
    // A refinement may carry its message's parameters (the decimals a field allows).
    const params = issue.code === "custom" ? ((issue.params ?? {}) as Record<string, string | number>) : {};
    return new AppError(issue.message, params, field);
  }
  if (!field) {
    return new AppError("MALFORMED_REQUEST");
  }
  return new AppError("FIELD_INVALID", {}, field.split(".")[0]);
}

export interface Refusal {
  code: number;
  errorCode: string;
  message: string;
  field?: string;
}

/**
 * Maps any error to what the client sees: a business refusal with its translated message, or a
 * generic "request error" that hides the details of a server fault.
 */
export function toRefusal(error: unknown, lang: Language): Refusal {
  const appError =
    error instanceof ZodError
      ? fromZodError(error)
      : isAppError(error)
        ? error
        : isDatabaseUnavailable(error)
          ? new AppError("SERVICE_UNAVAILABLE")
          : null;
  if (!appError) {
    return {
      code: ResponseCode.ServerError,
      errorCode: "REQUEST_ERROR",
      message: translate(lang, "errors.REQUEST_ERROR"),
    };
  }
  // Every text with a {{field}} names one: the refusal's field, else the whole input ("Value"), as a
  // malformed request whose input is not an object at all has no field to name.
  // A refinement's own parameters go in first: a `field` among them is a wire name, and the
  // translated name of the refusal's field replaces it.
  const params: Record<string, string | number> = {
    ...appError.params,
    field: translate(lang, appError.field ? fieldKey(appError.field) : "fields.value"),
  };
  return {
    code: appError.responseCode,
    errorCode: appError.code,
    message: translate(lang, errorMessageKey(appError.code), params),
    ...(appError.field ? { field: appError.field } : {}),
  };
}

/**
 * A NUL character in any text of an input (a value or a key, at any depth): PostgreSQL cannot store
 * it in a text column, so it would fail as a server fault wherever the text is written. Refused at
 * the edge for every call: FIELD_INVALID naming the top-level field when the catalog has its name,
 * otherwise as an unreadable request. Undefined when there is none.
 */
export function nulByteRefusal(input: unknown): AppError | undefined {
  const path = nulBytePath(input, 0);
  if (!path) {
    return undefined;
  }
  const field = path[0];
  return field !== undefined && hasKey(fieldKey(field))
    ? new AppError("FIELD_INVALID", {}, field)
    : new AppError("MALFORMED_REQUEST");
}

function nulBytePath(value: unknown, depth: number): string[] | undefined {
  if (typeof value === "string") {
    return value.includes("\u0000") ? [] : undefined;
  }
  if (!value || typeof value !== "object" || depth > 32) {
    return undefined;
  }
  for (const [key, child] of Object.entries(value)) {
    if (key.includes("\u0000")) {
      return [key];
    }
    const below = nulBytePath(child, depth + 1);
    if (below) {
      return [key, ...below];
    }
  }
  return undefined;
}
