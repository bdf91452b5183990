import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "../../lib/trpc.ts";

/** The active merchants, cheapest first per coin. */
export function useMerchants() {
  const trpc = useTRPC();
  return useQuery(trpc.c2c.merchants.queryOptions({}));
}
