import type { PolicySnapshot } from "./policy/index.ts";

/**
 * Verification rules both sides need: the questionnaire and its transparent scoring, the risk
 * levels, the credit score formula and the loan limit it gives. The server decides with them; the
 * web shows the user the same computation.
 */

export const VERIFICATION_LEVELS = ["primary", "advanced", "address", "credit"] as const;
export type VerificationLevel = (typeof VERIFICATION_LEVELS)[number];

/** SPEC section 3: document type ids 1 to 5. */
export const DOCUMENT_TYPES = [1, 2, 3, 4, 5] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];
export const DOCUMENT_TYPE_KEYS: Record<DocumentType, string> = {
  1: "idCard",
  2: "passport",
  3: "driversLicence",
  4: "residencePermit",
  5: "other",
};

/**
 * Format checks per document type where one exists across countries: a passport number is 6 to 9
 * letters and digits (ICAO 9303); the others vary by country and are checked for length and
 * characters only (letters, digits, dashes, 4 to 30).
 */
export function isDocumentNumberValid(type: DocumentType, number: string): boolean {
  if (type === 2) {
    return /^[A-Z0-9]{6,9}$/i.test(number);
  }
  return /^[A-Z0-9][A-Z0-9-]{2,28}[A-Z0-9]$/i.test(number);
}

/** "ABC123456" → "AB*****56": lists and the back-office queue show no full document number. */
export function maskDocumentNumber(number: string): string {
  if (number.length <= 4) {
    return "*".repeat(number.length);
  }
  return `${number.slice(0, 2)}${"*".repeat(number.length - 4)}${number.slice(-2)}`;
}

/**
 * The five questions of SPEC section 3 with their option counts; `points[i]` is what option i + 1
 * adds to the score. Higher points mean more appetite for risk. Texts are `kyc.questions.<id>.*`.
 */
export const QUESTIONS = [
  { id: "accountPurpose", points: [0, 1, 2, 3, 4, 1] },
  { id: "investmentPurpose", points: [0, 1, 2, 4] },
  { id: "amountRange", points: [0, 1, 2, 3, 4, 4] },
  { id: "monthlyTrades", points: [0, 1, 2, 3] },
  { id: "occupation", points: [1, 1, 1, 2, 2, 1, 1, 2, 0, 0, 1, 1] },
] as const;
export type QuestionId = (typeof QUESTIONS)[number]["id"];
export type QuestionnaireAnswers = Record<QuestionId, number>;

export const RISK_LEVELS = ["notAssessed", "conservative", "balanced", "aggressive"] as const;
export type RiskLevel = (typeof RISK_LEVELS)[number];

/** The highest score the questionnaire can give. */
export const MAX_QUESTIONNAIRE_SCORE = QUESTIONS.reduce((sum, q) => sum + Math.max(...q.points), 0);

/** True when every question has an answer among its options (ids start at 1). */
export function areAnswersComplete(
  answers: Partial<Record<string, unknown>>,
): answers is QuestionnaireAnswers {
  return QUESTIONS.every((q) => {
    const a = answers[q.id];
    return typeof a === "number" && Number.isInteger(a) && a >= 1 && a <= q.points.length;
  });
}

/**
 * The score is the sum of the chosen options' points; the level follows the policy's thresholds:
 * below `balanced` conservative, below `aggressive` balanced, else aggressive.
 */
export function scoreQuestionnaire(
  answers: QuestionnaireAnswers,
  thresholds: PolicySnapshot["kyc.risk.thresholds"],
): { score: number; level: Exclude<RiskLevel, "notAssessed"> } {
  let score = 0;
  for (const q of QUESTIONS) {
    const points = q.points[answers[q.id] - 1];
    if (points === undefined) {
      throw new RangeError(`answer out of range: ${q.id}`);
    }
    score += points;
  }
  const level =
    score >= thresholds.aggressive
      ? "aggressive"
      : score >= thresholds.balanced
        ? "balanced"
        : "conservative";
  return { score, level };
}

export interface CreditInputs {
  primary: boolean;
  advanced: boolean;
  address: boolean;
  /** Full months since the account was opened. */
  accountMonths: number;
  repayments: { onTime: number; late: number };
  /** Points an operator granted with a credit proof, 0 when none. */
  assessment: number;
}

export type CreditFactor = { key: string; points: number };

/** The published formula: each factor's points, and the score kept within 0..max. */
export function creditScore(
  inputs: CreditInputs,
  points: PolicySnapshot["kyc.credit.points"],
): { score: number; factors: CreditFactor[] } {
  const factors: CreditFactor[] = [
    { key: "base", points: points.base },
    { key: "primary", points: inputs.primary ? points.primary : 0 },
    { key: "advanced", points: inputs.advanced ? points.advanced : 0 },
    { key: "address", points: inputs.address ? points.address : 0 },
    {
      key: "accountAge",
      points: Math.min(points.ageCap, Math.max(0, inputs.accountMonths) * points.perMonthOfAge),
    },
    {
      key: "repayments",
      points:
        inputs.repayments.onTime * points.perOnTimeRepayment -
        inputs.repayments.late * points.perLateRepayment,
    },
    { key: "assessment", points: Math.min(points.assessmentMax, Math.max(0, inputs.assessment)) },
  ];
  const sum = factors.reduce((s, f) => s + f.points, 0);
  return { score: Math.max(0, Math.min(points.max, sum)), factors };
}

/** The loan limit of a score: the highest policy row whose minimum it reaches ("0" when none). */
export function loanLimitFor(score: number, table: PolicySnapshot["kyc.credit.loanLimits"]): string {
  let limit = "0";
  let best = -1;
  for (const row of table) {
    if (score >= row.minScore && row.minScore > best) {
      best = row.minScore;
      limit = row.limitUsdt;
    }
  }
  return limit;
}

/** Reasons an operator picks from when rejecting; texts are `kyc.reasons.<key>` in every language. */
export const REJECT_REASONS = [
  "photoUnclear",
  "photoEdited",
  "documentMismatch",
  "documentExpired",
  "handheldMissing",
  "informationIncomplete",
  "addressUnreadable",
  "proofInsufficient",
  "other",
] as const;
export type RejectReason = (typeof REJECT_REASONS)[number];

/** What a verification level lets the user do (SPEC section 6). */
export const GATED_ACTIONS = ["loans", "c2c", "creditScore"] as const;
export type GatedAction = (typeof GATED_ACTIONS)[number];
export const GATE_REQUIREMENTS: Record<GatedAction, readonly ("primary" | "advanced")[]> = {
  loans: ["primary", "advanced"],
  c2c: ["primary"],
  creditScore: ["primary"],
};

/** Product risk levels from the mildest; a user may buy up to their own level. */
export const PRODUCT_RISK_LEVELS = ["conservative", "balanced", "aggressive"] as const;
export type ProductRiskLevel = (typeof PRODUCT_RISK_LEVELS)[number];

/**
 * Whether a user of risk level `own` may buy a product of level `required`. A user who has not
 * answered the questionnaire counts as the policy's `kyc.risk.unassessedMayBuy` ("none": nothing).
 * The server enforces it; the web shows it before the buy button, from the same function.
 */
export function riskLevelAllows(
  own: RiskLevel,
  required: ProductRiskLevel,
  unassessedMayBuy: ProductRiskLevel | "none",
): boolean {
  const effective = own === "notAssessed" ? unassessedMayBuy : own;
  return (
    effective !== "none" && PRODUCT_RISK_LEVELS.indexOf(effective) >= PRODUCT_RISK_LEVELS.indexOf(required)
  );
}
