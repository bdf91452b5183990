import {
  applyAddressProof,
  applyAdvancedKyc,
  applyCreditProof,
  applyPrimaryKyc,
  getCreditScore,
  getMyVerification,
  getRiskProfile,
  getVerificationGates,
  submitQuestionnaire,
} from "@northstar/domain/kyc";
import {
  ZAddressProofRequestSchema,
  ZAdvancedKycRequestSchema,
  ZCreditProofRequestSchema,
  ZPrimaryKycRequestSchema,
  ZQuestionnaireRequestSchema,
} from "@northstar/shared/contracts/kyc";
import { authedProcedure, router } from "../../init.ts";

/** The signed-in user's verification: status and gates, the four applications, risk, credit. */
export const kycRouter = router({
  status: authedProcedure.query(async ({ ctx }) => {
    const [verification, gates, risk] = await Promise.all([
      getMyVerification(ctx.deps.db, ctx.auth.user.id),
      getVerificationGates(ctx.deps.db, ctx.auth.user.id),
      getRiskProfile(ctx.deps.db, ctx.auth.user.id),
    ]);
    return { nationality: ctx.auth.user.nationality, ...verification, gates: gates.gates, risk };
  }),
  applyPrimary: authedProcedure
    .input(ZPrimaryKycRequestSchema)
    .mutation(({ ctx, input }) => applyPrimaryKyc(ctx.deps.db, ctx.auth.user, input)),
  applyAdvanced: authedProcedure
    .input(ZAdvancedKycRequestSchema)
    .mutation(({ ctx, input }) => applyAdvancedKyc(ctx.deps.db, ctx.auth.user, input)),
  applyAddress: authedProcedure
    .input(ZAddressProofRequestSchema)
    .mutation(({ ctx, input }) => applyAddressProof(ctx.deps.db, ctx.auth.user, input)),
  applyCredit: authedProcedure
    .input(ZCreditProofRequestSchema)
    .mutation(({ ctx, input }) => applyCreditProof(ctx.deps.db, ctx.auth.user, input)),
  risk: authedProcedure.query(({ ctx }) => getRiskProfile(ctx.deps.db, ctx.auth.user.id)),
  submitQuestionnaire: authedProcedure
    .input(ZQuestionnaireRequestSchema)
    .mutation(({ ctx, input }) => submitQuestionnaire(ctx.deps.db, ctx.auth.user.id, input.answers)),
  /** Refused with "please complete KYC" until primary KYC is approved. */
  creditScore: authedProcedure.query(({ ctx }) => getCreditScore(ctx.deps.db, ctx.auth.user.id)),
});
