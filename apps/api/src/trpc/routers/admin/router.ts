import { loginOperator } from "@northstar/domain/admin";
import { AppError } from "@northstar/domain/errors";
import { getPolicySnapshot, setPolicy } from "@northstar/domain/policy";
import { isPolicyKey } from "@northstar/shared/policy";
import { z } from "zod";
import { operatorProcedure, publicProcedure, router } from "../../init.ts";

export const adminRouter = router({
  login: publicProcedure
    .input(z.object({ username: z.string().min(1).max(64), password: z.string().min(1).max(128) }))
    .mutation(({ ctx, input }) => loginOperator(ctx.deps.db, input)),
  me: operatorProcedure(["admin", "finance", "support", "content"]).query(({ ctx }) => ctx.operator),
  getPolicy: operatorProcedure(["admin", "finance"]).query(({ ctx }) => getPolicySnapshot(ctx.deps.db)),
  setPolicy: operatorProcedure(["admin"])
    .input(z.object({ key: z.string(), value: z.unknown() }))
    .mutation(async ({ ctx, input }) => {
      if (!isPolicyKey(input.key)) {
        throw new AppError("FIELD_INVALID", {}, "key");
      }
      await setPolicy(ctx.deps.db, input.key, input.value, `operator:${ctx.operator.id}`);
      return { ok: true };
    }),
});
