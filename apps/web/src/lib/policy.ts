import { policyDefaults } from "@northstar/shared/policy";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "./trpc.ts";

/** Public policy values (password length, invite-code rule, upload size…), merged over defaults. */
export function usePolicy() {
  const trpc = useTRPC();
  const query = useQuery(trpc.policy.getPublic.queryOptions(undefined, { staleTime: 5 * 60_000 }));
  return { ...policyDefaults(), ...(query.data ?? {}) };
}
