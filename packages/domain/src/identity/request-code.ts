import type { TGetCodeRequest } from "@northstar/shared/contracts/identity";
import type { Language } from "@northstar/shared/languages";
import type { DbOrTx } from "../db/client.ts";
import { AppError } from "../errors.ts";
import type { Notifier } from "../notifications/index.ts";
import { boundTarget, codeTarget, findUserByAccount, parseAccountRef, type User } from "./accounts.ts";
import { issueCode } from "./codes.ts";

/**
 * web/getCode. Register and bind need an account nobody holds yet; reset sends only to an existing
 * one, answering the same either way; changepwd and tradepwd send to the signed-in user's own bound
 * email or phone.
 */
export async function requestCode(
  db: DbOrTx,
  notifier: Notifier,
  params: { input: TGetCodeRequest; user?: User; lang: Language; ip?: string },
): Promise<{ resendSeconds: number }> {
  const { input } = params;
  let destination: { channel: "email" | "phone"; target: string };
  let deliver = true;
  if (input.purpose === "changepwd" || input.purpose === "tradepwd") {
    if (!params.user) {
      throw new AppError("LOGIN_REQUIRED");
    }
    destination = boundTarget(params.user, input.type);
  } else {
    const ref = parseAccountRef(input);
    const existing = await findUserByAccount(db, ref);
    if (input.purpose === "reset" && existing?.kind !== "real") {
      // Answered as for a real account, with the same resend and daily limits, but sent nowhere:
      // a reset request must not tell whether the account exists.
      deliver = false;
    }
    if ((input.purpose === "register" || input.purpose === "bind") && existing) {
      throw new AppError(input.purpose === "register" ? "ACCOUNT_EXISTS" : "ALREADY_BOUND", {}, "account");
    }
    if (input.purpose === "bind" && !params.user) {
      throw new AppError("LOGIN_REQUIRED");
    }
    destination = codeTarget(ref);
  }
  return issueCode(db, notifier, {
    ...destination,
    purpose: input.purpose,
    lang: params.lang,
    ip: params.ip,
    deliver,
  });
}
