import { z } from "zod";
import { DOCUMENT_TYPES, isDocumentNumberValid, QUESTIONS, REJECT_REASONS } from "../kyc.ts";
import { DECIMAL_STRING } from "../money.ts";
import { err } from "./common.ts";

const zUploadId = z.uuid(err("UPLOAD_MISSING"));
const zText = (max: number) => z.string(err("FIELD_REQUIRED")).trim().min(1, err("FIELD_REQUIRED")).max(max);
const zUsdtAmount = z.string(err("AMOUNT_INVALID")).trim().regex(DECIMAL_STRING, err("AMOUNT_INVALID"));

/** Primary KYC. The nationality comes from the account and is not sent. */
export const ZPrimaryKycRequestSchema = z
  .object({
    document_type: z.coerce
      .number(err("FIELD_INVALID"))
      .int()
      .refine((v) => (DOCUMENT_TYPES as readonly number[]).includes(v), err("FIELD_INVALID")),
    real_name: zText(64).pipe(z.string().min(2, err("FIELD_INVALID"))),
    document_number: zText(30).transform((v) => v.toUpperCase().replace(/\s+/g, "")),
    front_upload_id: zUploadId,
    back_upload_id: zUploadId,
    handheld_upload_id: zUploadId,
  })
  .superRefine((v, ctx) => {
    if (!isDocumentNumberValid(v.document_type as 1, v.document_number)) {
      ctx.addIssue({ code: "custom", path: ["document_number"], message: "DOCUMENT_NUMBER_FORMAT" });
    }
  });
export type TPrimaryKycRequest = z.infer<typeof ZPrimaryKycRequestSchema>;

export const ASSET_KINDS = ["house", "bankDeposit", "stocks", "company"] as const;
export const OCCUPATIONS = QUESTIONS.find((q) => q.id === "occupation")?.points.length ?? 12;

/** Advanced KYC: occupation, monthly income, source of wealth, expected investment, asset proofs. */
export const ZAdvancedKycRequestSchema = z.object({
  occupation: z.coerce
    .number(err("FIELD_INVALID"))
    .int()
    .min(1, err("FIELD_INVALID"))
    .max(OCCUPATIONS, err("FIELD_INVALID")),
  monthly_income: zUsdtAmount,
  source_of_wealth: zText(200),
  expected_investment: zUsdtAmount,
  assets: z
    .array(z.object({ kind: z.enum(ASSET_KINDS, err("FIELD_INVALID")), upload_id: zUploadId }))
    .min(1, err("PROOF_REQUIRED"))
    .max(8),
});
export type TAdvancedKycRequest = z.infer<typeof ZAdvancedKycRequestSchema>;

/** Address proof: the address on the utility bill, and its image. */
export const ZAddressProofRequestSchema = z.object({
  address: zText(300),
  upload_id: zUploadId,
});

/** Credit proof for the operator's assessment. */
export const ZCreditProofRequestSchema = z.object({
  note: z.string().trim().max(300).optional(),
  upload_id: zUploadId,
});

/** Each question's answer: the option id, 1-based. */
export const ZQuestionnaireRequestSchema = z.object({
  answers: z.object(
    Object.fromEntries(
      QUESTIONS.map((q) => [
        q.id,
        z.coerce
          .number(err("FIELD_REQUIRED"))
          .int()
          .min(1, err("FIELD_REQUIRED"))
          .max(q.points.length, err("FIELD_INVALID")),
      ]),
    ) as Record<(typeof QUESTIONS)[number]["id"], z.ZodCoercedNumber>,
  ),
});

export const zKycLevel = z.enum(["primary", "advanced", "address", "credit"]);

/** An operator's rejection: a reason from the translated list, optional free text. */
export const ZKycRejectRequestSchema = z.object({
  id: z.coerce.number().int().positive(),
  reason: z.enum(REJECT_REASONS, err("REJECT_REASON_REQUIRED")),
  note: z.string().trim().max(300).optional(),
});
export const ZKycApproveRequestSchema = z.object({
  id: z.coerce.number().int().positive(),
  /** Credit proofs: the points the operator grants (at most the policy's `assessmentMax`). */
  assessment_points: z.coerce.number().int().min(0).max(10_000).optional(),
});
