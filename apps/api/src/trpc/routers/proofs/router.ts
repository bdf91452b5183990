import { getMyProof, listProofs, publishProof } from "@northstar/domain/proofs";
import { z } from "zod";
import { authedProcedure, operatorProcedure, publicProcedure, router } from "../../init.ts";

const actor = (op: { id: number }) => (op.id === 0 ? "cli" : `operator:${op.id}`);

/** Proof of liabilities: the published roots and totals for everyone, and a user's own proof. */
export const proofsRouter = router({
  list: publicProcedure.query(({ ctx }) => listProofs(ctx.deps.db)),
  mine: authedProcedure
    .input(z.object({ proof_id: z.coerce.number().int().positive().optional() }))
    .query(({ ctx, input }) => getMyProof(ctx.deps.db, ctx.auth.user.id, input.proof_id)),
});

/** Publishing a proof on demand (the daily job publishes one too). */
export const adminProofsRouter = router({
  publish: operatorProcedure("proofs.publish").mutation(({ ctx }) =>
    publishProof(ctx.deps.db, actor(ctx.operator)),
  ),
});
