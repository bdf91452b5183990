import {
  approveKycApplication,
  listKycDecisions,
  listKycForReview,
  rejectKycApplication,
} from "@northstar/domain/kyc";
import {
  ZKycApproveRequestSchema,
  ZKycRejectRequestSchema,
  zKycLevel,
} from "@northstar/shared/contracts/kyc";
import { z } from "zod";
import { operatorProcedure, router } from "../../init.ts";

/**
 * Who reviews verification. Operator roles for compliance come with another issue: until then any
 * signed-in operator may review. Every review procedure uses this one definition, so the role check
 * is added here alone.
 */
// Identity documents and their photos are for compliance (and administrators) only.
const kycReviewer = operatorProcedure("kyc.review");
const actor = (op: { id: number }) => (op.id === 0 ? "cli" : `operator:${op.id}`);

/** The back office's verification queue (mounted as `admin.kyc`); every decision is audited. */
export const kycAdminRouter = router({
  queue: kycReviewer
    .input(
      z.object({
        status: z.enum(["under_review", "approved", "rejected"]).optional(),
        level: zKycLevel.optional(),
      }),
    )
    .query(({ ctx, input }) => listKycForReview(ctx.deps.db, input)),
  decisions: kycReviewer.query(({ ctx }) => listKycDecisions(ctx.deps.db)),
  approve: kycReviewer.input(ZKycApproveRequestSchema).mutation(({ ctx, input }) =>
    approveKycApplication(ctx.deps.db, {
      applicationId: input.id,
      operatorId: ctx.operator.id,
      actor: actor(ctx.operator),
      assessmentPoints: input.assessment_points,
    }),
  ),
  reject: kycReviewer.input(ZKycRejectRequestSchema).mutation(({ ctx, input }) =>
    rejectKycApplication(ctx.deps.db, {
      applicationId: input.id,
      operatorId: ctx.operator.id,
      actor: actor(ctx.operator),
      reason: input.reason,
      note: input.note,
    }),
  ),
});
