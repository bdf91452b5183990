import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "../../lib/trpc.ts";

/** The signed-in user's verification: each level's latest application, the gates, the risk level. */
export function useKycStatus(enabled = true) {
  const trpc = useTRPC();
  return useQuery({ ...trpc.kyc.status.queryOptions(), enabled });
}
