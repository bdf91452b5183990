import { ResponseCode } from "@northstar/shared/errors";
import i18n from "../i18n/index.ts";
import { feedback } from "./feedback.ts";
import { clearSession } from "./session.ts";

/** A refusal or failure from the server, carrying the envelope code and the domain error code. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: number,
    readonly errorCode: string | undefined,
    readonly field: string | undefined,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

/** Actions whose success message is shown plainly (SPEC section 8). */
export const MESSAGE_EVENTS = new Set(["login", "register", "buy", "buyProfit", "createOrder"]);

let reloadScheduled = false;

/**
 * The client rules of SPEC section 8, shared by the legacy calls and tRPC:
 * 2000 opens a confirm box (log in again / go back); 1000 logs out and reloads after 2 s;
 * any other refusal shows its message as a warning (default "request error").
 */
export function applyClientRules(error: ApiError, options: { silent?: boolean } = {}): void {
  if (error.code === ResponseCode.NotLoggedIn) {
    feedback.confirmLogin(error.message || i18n.t("errors.LOGIN_REQUIRED"));
    return;
  }
  if (error.code === ResponseCode.SessionEnded) {
    feedback.warning(error.message || i18n.t("errors.SESSION_ENDED"));
    clearSession();
    if (!reloadScheduled) {
      reloadScheduled = true;
      setTimeout(() => window.location.reload(), 2000);
    }
    return;
  }
  if (error.errorCode === "DEMO_EXPIRED") {
    feedback.demoExpired(error.message);
    return;
  }
  if (!options.silent) {
    feedback.warning(error.message || i18n.t("errors.REQUEST_ERROR"));
  }
}
