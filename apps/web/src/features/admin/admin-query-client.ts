import { ResponseCode } from "@northstar/shared/errors";
import { MutationCache, QueryCache, QueryClient } from "@tanstack/react-query";
import { TRPCClientError } from "@trpc/client";
import i18n from "../../i18n/index.ts";
import { feedback } from "../../lib/feedback.ts";
import { toApiError } from "../../lib/trpc.ts";
import { operatorTokenStore } from "./operator-session.ts";

/**
 * The back office keeps its own query cache, so operator data never sits in (or is cleared with)
 * a user's cache, and so its error rules are an operator's: an expired operator session (2000)
 * drops the operator token and the guard sends the operator to /admin/login, instead of the user
 * app's "log in again" box that leads to the user login. Queries show their errors in the page;
 * mutations show the server's refusal as a toast unless they show it themselves (`meta.inline`).
 */
export function createAdminQueryClient(): QueryClient {
  const sessionEnded = (error: unknown): boolean => {
    if (toApiError(error).code !== ResponseCode.NotLoggedIn) {
      return false;
    }
    if (operatorTokenStore.get() !== "") {
      operatorTokenStore.clear();
      feedback.warning(i18n.t("admin.session.expired"));
    }
    return true;
  };
  return new QueryClient({
    queryCache: new QueryCache({ onError: (error) => void sessionEnded(error) }),
    mutationCache: new MutationCache({
      onError: (error, _vars, _ctx, mutation) => {
        if (sessionEnded(error) || mutation.meta?.inline) {
          return;
        }
        feedback.warning(toApiError(error).message || i18n.t("errors.REQUEST_ERROR"));
      },
    }),
    defaultOptions: {
      queries: {
        // A refusal is an answer: retry only requests that got none, and only twice.
        retry: (count, error) => count < 2 && !(error instanceof TRPCClientError && error.data),
        staleTime: 10_000,
      },
    },
  });
}

/** The server's refusal text for an error, or the generic one. */
export function refusalText(error: unknown): string {
  return toApiError(error).message || i18n.t("errors.REQUEST_ERROR");
}
