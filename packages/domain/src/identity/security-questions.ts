import type {
  ZSetSecurityQuestionsRequestSchema,
  ZVerifySecurityAnswerRequestSchema,
} from "@northstar/shared/contracts/identity";
import { and, asc, eq } from "drizzle-orm";
import type { z } from "zod";
import type { Db } from "../db/client.ts";
import type { User } from "./accounts.ts";
import { securityAnswers } from "./identity.table.ts";
import { checkLoginPassword } from "./login-password.ts";
import { checkSecretLimited, userSubject } from "./secret-attempts.ts";
import { hashSecret, verifySecret } from "./secrets.ts";

// Answers are compared case- and space-insensitively: "Paris " and "paris" are the same answer.
const normalise = (answer: string) => answer.trim().replace(/\s+/g, " ").toLowerCase();

/** Sets the answers to security questions 1 to 3, confirmed by the login password. */
export async function setSecurityQuestions(
  db: Db,
  user: User,
  input: z.output<typeof ZSetSecurityQuestionsRequestSchema>,
): Promise<void> {
  await checkLoginPassword(db, user, input.login_password, "login_password");
  const rows = await Promise.all(
    input.answers.map(async (a) => ({
      userId: user.id,
      questionId: a.question_id,
      answerHash: await hashSecret(normalise(a.answer)),
    })),
  );
  await db.transaction(async (tx) => {
    await tx.delete(securityAnswers).where(eq(securityAnswers.userId, user.id));
    await tx.insert(securityAnswers).values(rows);
  });
}

export async function hasSecurityQuestions(db: Db, userId: number): Promise<boolean> {
  const rows = await db
    .select({ q: securityAnswers.questionId })
    .from(securityAnswers)
    .where(eq(securityAnswers.userId, userId))
    .orderBy(asc(securityAnswers.questionId));
  return rows.length === 3;
}

export async function verifySecurityAnswer(
  db: Db,
  user: User,
  input: z.output<typeof ZVerifySecurityAnswerRequestSchema>,
): Promise<void> {
  const [row] = await db
    .select()
    .from(securityAnswers)
    .where(and(eq(securityAnswers.userId, user.id), eq(securityAnswers.questionId, input.question_id)));
  // The three answers share one attempt limit: guessing them one after another is no way around it.
  await checkSecretLimited(
    db,
    { kind: "security_answer", subject: userSubject(user.id) },
    { wrong: "SECURITY_ANSWER_WRONG", locked: "SECURITY_ANSWER_LOCKED", field: "answer" },
    async () => Boolean(row && (await verifySecret(normalise(input.answer), row.answerHash))),
  );
}
