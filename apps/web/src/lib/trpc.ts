import type { AppRouter } from "@northstar/api/trpc";
import { MutationCache, QueryCache, QueryClient } from "@tanstack/react-query";
import { createTRPCClient, httpBatchLink, httpLink, splitLink, TRPCClientError } from "@trpc/client";
import { createTRPCContext } from "@trpc/tanstack-react-query";
import { ApiError, applyClientRules } from "./client-rules.ts";
import { hasRequestKey, requestKeyHeaders } from "./request-key.ts";
import { languageStore, tokenStore } from "./session.ts";

export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

interface ErrorData {
  responseCode?: number;
  errorCode?: string;
  field?: string | null;
}

/** Turns a tRPC error into the same ApiError the legacy calls raise. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) {
    return error;
  }
  if (error instanceof TRPCClientError) {
    const data = (error.data ?? {}) as ErrorData;
    return new ApiError(error.message, data.responseCode ?? 500, data.errorCode, data.field ?? undefined);
  }
  return new ApiError(error instanceof Error ? error.message : "", 500, "REQUEST_ERROR", undefined);
}

/** A failure worth retrying: the request never got an answer (legacy code -1, or a tRPC error without data). */
function isNetworkFailure(error: unknown): boolean {
  if (error instanceof ApiError) {
    return error.code === -1;
  }
  return !(error instanceof TRPCClientError && error.data);
}

export function createQueryClient(): QueryClient {
  const onError = (error: unknown) => {
    // Legacy calls (ApiError) already applied the client rules, honouring `silent`; only tRPC errors get them here.
    if (!(error instanceof ApiError)) {
      applyClientRules(toApiError(error));
    }
  };
  return new QueryClient({
    queryCache: new QueryCache({ onError }),
    mutationCache: new MutationCache({ onError }),
    defaultOptions: {
      queries: {
        // Refusals are answers, not outages: retry only network failures, and only twice.
        retry: (count, error) => count < 2 && isNetworkFailure(error),
        staleTime: 15_000,
      },
    },
  });
}

function sessionHeaders(): Record<string, string> {
  const token = tokenStore.get();
  const operatorToken = sessionStorage.getItem("operatorToken");
  return {
    lang: languageStore.get(),
    ...(token ? { authorization: `Bearer ${token}` } : {}),
    ...(operatorToken ? { "x-operator-token": operatorToken } : {}),
  };
}

export function createTrpcClient() {
  return createTRPCClient<AppRouter>({
    links: [
      // A money action's Idempotency-Key is a header of the whole HTTP request: it goes unbatched.
      splitLink({
        condition: (op) => hasRequestKey(op.context),
        true: httpLink({
          url: "/trpc",
          headers: ({ op }) => ({ ...sessionHeaders(), ...requestKeyHeaders(op.context) }),
        }),
        // A batch longer than this is split in several requests (the API accepts up to 4,000).
        false: httpBatchLink({ url: "/trpc", headers: sessionHeaders, maxURLLength: 3500 }),
      }),
    ],
  });
}
