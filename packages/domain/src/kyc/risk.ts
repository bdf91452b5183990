import {
  areAnswersComplete,
  type ProductRiskLevel,
  type RiskLevel,
  riskLevelAllows,
  scoreQuestionnaire,
} from "@northstar/shared/kyc";
import { MoneyDecimal } from "@northstar/shared/money";
import { desc, eq } from "drizzle-orm";
import type { DbOrTx } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { getPolicy } from "../policy/index.ts";
import { riskAssessments } from "./kyc.table.ts";
import { toUserId } from "./status.ts";

/** The user's risk level (latest questionnaire) and the maximum investment per order it allows. */
export async function getRiskProfile(db: DbOrTx, userId: string | number) {
  const id = toUserId(userId);
  const [[latest], caps] = await Promise.all([
    db
      .select()
      .from(riskAssessments)
      .where(eq(riskAssessments.userId, id))
      .orderBy(desc(riskAssessments.id))
      .limit(1),
    getPolicy(db, "kyc.risk.maxPerOrderUsdt"),
  ]);
  const level: RiskLevel = latest?.level ?? "notAssessed";
  return {
    level,
    score: latest?.score ?? null,
    answers: latest?.answers ?? null,
    assessedAt: latest?.createdAt ?? null,
    maxPerOrderUsdt: caps[level],
  };
}

/** Scores the answers and records the new risk level; the questionnaire may be taken again. */
export async function submitQuestionnaire(db: DbOrTx, userId: number, answers: Record<string, number>) {
  if (!areAnswersComplete(answers)) {
    throw new AppError("FIELD_INVALID", {}, "answers");
  }
  const thresholds = await getPolicy(db, "kyc.risk.thresholds");
  const { score, level } = scoreQuestionnaire(answers, thresholds);
  await db.insert(riskAssessments).values({ userId, answers, score, level });
  return getRiskProfile(db, userId);
}

/**
 * Refuses an order whose value in USDT exceeds the maximum investment per order of the user's risk
 * level (policy `kyc.risk.maxPerOrderUsdt`). A user who has not taken the questionnaire is "not
 * assessed" and may invest up to that level's cap (1000 USDT by default; 0 refuses every order).
 * Earn, options and contracts call this before they hold funds for an order.
 */
export async function assertWithinRiskLimit(
  db: DbOrTx,
  userId: string | number,
  amountUsdt: string,
): Promise<void> {
  let amount: MoneyDecimal;
  try {
    amount = new MoneyDecimal(amountUsdt);
  } catch {
    throw new AppError("AMOUNT_INVALID", {}, "amount");
  }
  if (!amount.isFinite() || amount.isNegative()) {
    throw new AppError("AMOUNT_INVALID", {}, "amount");
  }
  const profile = await getRiskProfile(db, userId);
  if (amount.greaterThan(profile.maxPerOrderUsdt)) {
    throw new AppError("RISK_LIMIT_EXCEEDED", { max: profile.maxPerOrderUsdt }, "amount");
  }
}

export type { ProductRiskLevel };

/**
 * Refuses a product whose risk level is above the user's (RISK_LEVEL_TOO_LOW). A user who has not
 * answered the questionnaire may buy up to the policy's `kyc.risk.unassessedMayBuy` (conservative by
 * default). The rule is shared with the web, which shows it before the buy button.
 */
export async function assertRiskLevelAllows(
  db: DbOrTx,
  userId: string | number,
  required: ProductRiskLevel,
): Promise<void> {
  const { level } = await getRiskProfile(db, userId);
  if (!riskLevelAllows(level, required, await getPolicy(db, "kyc.risk.unassessedMayBuy"))) {
    throw new AppError("RISK_LEVEL_TOO_LOW");
  }
}
