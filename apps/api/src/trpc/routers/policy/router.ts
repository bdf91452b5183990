import { getPublicPolicy } from "@northstar/domain/policy";
import { publicProcedure, router } from "../../init.ts";

export const policyRouter = router({
  /** The policy values users see on screens: the same merged values the server enforces. */
  getPublic: publicProcedure.query(({ ctx }) => getPublicPolicy(ctx.deps.db)),
});
