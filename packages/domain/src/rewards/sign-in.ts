import { MoneyDecimal } from "@northstar/shared/money";
import { and, desc, eq } from "drizzle-orm";
import type { Db, DbOrTx } from "../db/client.ts";
import { AppError } from "../errors.ts";
import type { User } from "../identity/index.ts";
import { postEntry } from "../ledger/index.ts";
import { getPolicy } from "../policy/index.ts";
import { budgetBalance } from "./budget.ts";
import { signInClaims, signInProfiles } from "./rewards.table.ts";
import { cycleState, isTimeZone, localDate } from "./sign-in-cycle.ts";

async function signInTerms(db: DbOrTx) {
  const [rewards, currency, restartOnMiss, defaultTimeZone] = await Promise.all([
    getPolicy(db, "rewards.signIn.dailyRewards"),
    getPolicy(db, "rewards.signIn.currency"),
    getPolicy(db, "rewards.signIn.restartOnMiss"),
    getPolicy(db, "rewards.signIn.defaultTimeZone"),
  ]);
  return { rewards, currency, restartOnMiss, defaultTimeZone };
}

function checkTimeZone(timeZone: string | undefined): string | undefined {
  if (timeZone !== undefined && !isTimeZone(timeZone)) {
    throw new AppError("TIME_ZONE_INVALID", {}, "time_zone");
  }
  return timeZone;
}

/**
 * The user's sign-in card: the 7 days of the cycle with their rewards, which are signed, the day a
 * claim today gives, whether today is claimed, in the user's time zone (their first claim's, else
 * `timeZone` from the browser, else the policy default). `paused` says the marketing budget cannot
 * pay today's reward (a fresh platform's budget is empty until an operator funds it), so the card
 * says the programme is not running instead of offering a claim that would be refused.
 */
export async function getSignInStatus(db: DbOrTx, userId: number, timeZone?: string, now = new Date()) {
  const terms = await signInTerms(db);
  const [profile] = await db.select().from(signInProfiles).where(eq(signInProfiles.userId, userId));
  const zone = profile?.timeZone ?? checkTimeZone(timeZone) ?? terms.defaultTimeZone;
  const today = localDate(now, zone);
  const state = cycleState(profile ?? { cycleDay: 0, lastClaimDate: null }, today, terms.restartOnMiss);
  const reward = new MoneyDecimal(terms.rewards[state.day - 1] ?? "0");
  const paused = !state.signedToday && (await budgetBalance(db, terms.currency)).lessThan(reward);
  return {
    paused,
    timeZone: zone,
    today,
    currency: terms.currency,
    restartOnMiss: terms.restartOnMiss,
    signedToday: state.signedToday,
    day: state.day,
    days: terms.rewards.map((reward, i) => ({ day: i + 1, reward, signed: i < state.signedDays })),
  };
}

/**
 * Claims today's sign-in reward: once per calendar day in the user's time zone (fixed at the first
 * claim), paid from the marketing budget to the exchange wallet. Under the profile's row lock: twenty
 * claims at once pay once, the others are refused as already claimed. An exhausted budget refuses and
 * moves nothing.
 */
export async function claimSignIn(
  db: Db,
  user: Pick<User, "id" | "kind">,
  timeZone?: string,
  now = new Date(),
) {
  if (user.kind !== "real") {
    throw new AppError("REAL_ACCOUNT_REQUIRED");
  }
  const zoneIn = checkTimeZone(timeZone);
  const terms = await signInTerms(db);
  return db.transaction(async (tx) => {
    await tx
      .insert(signInProfiles)
      .values({ userId: user.id, timeZone: zoneIn ?? terms.defaultTimeZone })
      .onConflictDoNothing();
    const [profile] = await tx
      .select()
      .from(signInProfiles)
      .where(eq(signInProfiles.userId, user.id))
      .for("update");
    if (!profile) {
      throw new Error(`sign-in profile of user ${user.id} missing`);
    }
    const today = localDate(now, profile.timeZone);
    const state = cycleState(profile, today, terms.restartOnMiss);
    if (state.signedToday) {
      throw new AppError("SIGN_IN_ALREADY_CLAIMED");
    }
    const amount = new MoneyDecimal(terms.rewards[state.day - 1] ?? "0");
    // The budget's row is locked before it is read, so two users' claims cannot both spend its last part.
    const budget = await budgetBalance(tx, terms.currency, { lock: true });
    if (budget.lessThan(amount)) {
      throw new AppError("SIGN_IN_BUDGET_EXHAUSTED");
    }
    const [row] = await tx
      .insert(signInClaims)
      .values({
        userId: user.id,
        localDate: today,
        cycleDay: state.day,
        currency: terms.currency,
        amount: amount.toFixed(),
      })
      .returning({ id: signInClaims.id });
    await tx
      .update(signInProfiles)
      .set({ cycleDay: state.day, lastClaimDate: today, updatedAt: now })
      .where(eq(signInProfiles.userId, user.id));
    if (!amount.isZero()) {
      await postEntry(tx, {
        // The claim row (unique per user and day) is the business key; the entry is paid once per claim.
        idempotencyKey: `rewards.sign-in:${row?.id}`,
        kind: "rewards.sign_in",
        reference: { type: "sign_in_claim", id: String(row?.id) },
        postings: [
          {
            account: { system: "marketing_budget", book: "real", currency: terms.currency },
            amount: amount.neg().toFixed(),
          },
          {
            account: { userId: user.id, book: "real", wallet: "exchange", currency: terms.currency },
            amount: amount.toFixed(),
          },
        ],
      });
    }
    return { day: state.day, date: today, currency: terms.currency, amount: amount.toFixed() };
  });
}

/** My claims, latest first. */
export async function listSignInClaims(db: DbOrTx, userId: number, limit = 30) {
  const rows = await db
    .select()
    .from(signInClaims)
    .where(and(eq(signInClaims.userId, userId)))
    .orderBy(desc(signInClaims.localDate))
    .limit(limit);
  return rows.map((r) => ({
    date: r.localDate,
    day: r.cycleDay,
    currency: r.currency,
    amount: new MoneyDecimal(r.amount).toFixed(),
    at: r.createdAt,
  }));
}

/** The reward centre's tasks and what each pays, from policy (the same values the server pays). */
export async function listRewardTasks(db: DbOrTx) {
  const [terms, levelRates] = await Promise.all([signInTerms(db), getPolicy(db, "referral.levelRates")]);
  const total = terms.rewards.reduce((s, r) => s.plus(r), new MoneyDecimal(0));
  return {
    signIn: {
      rewards: terms.rewards,
      currency: terms.currency,
      cycleTotal: total.toFixed(),
      restartOnMiss: terms.restartOnMiss,
      defaultTimeZone: terms.defaultTimeZone,
    },
    invite: { levelRates },
  };
}
