import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { useTRPC } from "../../lib/trpc.ts";

/**
 * The decimals each currency is held to (`currencies.decimals`): the server refuses a deposit or
 * withdrawal amount finer than that (AMOUNT_TOO_PRECISE) and rounds the withdrawal fee up to it.
 * Undefined while the list is loading or for an unknown currency.
 */
export function useCurrencyDecimals(): (currency: string) => number | undefined {
  const trpc = useTRPC();
  const currencies = useQuery(trpc.asset.currencies.queryOptions(undefined, { staleTime: 10 * 60_000 }));
  const data = currencies.data;
  return useMemo(() => {
    const byCode = new Map((data ?? []).map((c) => [c.code, c.decimals]));
    return (currency: string) => byCode.get(currency);
  }, [data]);
}
