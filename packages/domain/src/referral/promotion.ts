import { MoneyDecimal } from "@northstar/shared/money";
import { and, asc, desc, eq, sql } from "drizzle-orm";
import type { DbOrTx } from "../db/client.ts";
import { users } from "../identity/index.ts";
import { getPolicy } from "../policy/index.ts";
import { referralRewards, referralRuns } from "./referral.table.ts";

export interface PromotionLevel {
  level: number;
  /** The share of an invitee's trading fees this level earns. */
  rate: string;
  /** Accounts at this level below the user (level 1: those the user invited). */
  count: number;
  /** What this level has earned, per currency, in currency order. */
  income: { currency: string; amount: string }[];
}

/**
 * The invitation page and web/getMyPromotion: the code, the link, and count and income by level. A
 * demo account's code invites nobody (registration refuses it, as the chain is of real accounts):
 * it gets no code and no link, and `canInvite` false so the page can say why.
 */
export async function getPromotion(db: DbOrTx, userId: number, publicUrl: string) {
  const rates = await getPolicy(db, "referral.levelRates");
  const [me] = await db
    .select({ inviteCode: users.inviteCode, kind: users.kind })
    .from(users)
    .where(eq(users.id, userId));
  const counts = await db.execute<{ level: number; count: string }>(sql`
    with recursive down(id, level) as (
      select u.id, 1 from users u where u.invited_by = ${userId}
      union all
      select u.id, d.level + 1 from down d join users u on u.invited_by = d.id where d.level < ${rates.length}
    )
    select level, count(*)::text as count from down group by level order by level`);
  const income = await db
    .select({
      level: referralRewards.level,
      currency: referralRewards.currency,
      amount: sql<string>`sum(${referralRewards.amount})::text`,
    })
    .from(referralRewards)
    .where(eq(referralRewards.beneficiaryId, userId))
    .groupBy(referralRewards.level, referralRewards.currency)
    .orderBy(asc(referralRewards.level), asc(referralRewards.currency));
  const levels: PromotionLevel[] = rates.map((rate, i) => ({
    level: i + 1,
    rate,
    count: Number(counts.rows.find((r) => Number(r.level) === i + 1)?.count ?? 0),
    income: income
      .filter((r) => r.level === i + 1)
      .map((r) => ({ currency: r.currency, amount: new MoneyDecimal(r.amount).toFixed() })),
  }));
  const totals = new Map<string, InstanceType<typeof MoneyDecimal>>();
  for (const r of income) {
    totals.set(r.currency, (totals.get(r.currency) ?? new MoneyDecimal(0)).plus(r.amount));
  }
  const canInvite = me?.kind === "real";
  const code = canInvite ? (me?.inviteCode ?? "") : "";
  return {
    code,
    link: canInvite ? `${publicUrl}/register?code=${code}` : "",
    canInvite,
    levels,
    totalCount: levels.reduce((s, l) => s + l.count, 0),
    totalIncome: [...totals].map(([currency, amount]) => ({ currency, amount: amount.toFixed() })),
  };
}

/** My rewards, latest day first: what each day paid me per level and currency. */
export async function listMyReferralRewards(db: DbOrTx, userId: number, page: number, pageSize: number) {
  const rows = await db
    .select({
      day: referralRewards.day,
      level: referralRewards.level,
      currency: referralRewards.currency,
      amount: sql<string>`sum(${referralRewards.amount})::text`,
      invitees: sql<number>`count(*)::int`,
    })
    .from(referralRewards)
    .where(eq(referralRewards.beneficiaryId, userId))
    .groupBy(referralRewards.day, referralRewards.level, referralRewards.currency)
    .orderBy(desc(referralRewards.day), asc(referralRewards.level), asc(referralRewards.currency))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  return rows.map((r) => ({ ...r, amount: new MoneyDecimal(r.amount).toFixed() }));
}

/**
 * The back office's payouts: one line per day, inviter and currency (what one ledger entry paid),
 * latest day first, optionally one day.
 */
export async function listReferralPayouts(
  db: DbOrTx,
  params: { day?: string; page: number; pageSize: number },
) {
  const where = params.day ? eq(referralRewards.day, params.day) : undefined;
  const rows = await db
    .select({
      day: referralRewards.day,
      beneficiaryId: referralRewards.beneficiaryId,
      uid: users.uid,
      currency: referralRewards.currency,
      amount: sql<string>`sum(${referralRewards.amount})::text`,
      fees: sql<string>`sum(${referralRewards.fee})::text`,
      invitees: sql<number>`count(*)::int`,
    })
    .from(referralRewards)
    .innerJoin(users, eq(users.id, referralRewards.beneficiaryId))
    .where(and(where))
    .groupBy(referralRewards.day, referralRewards.beneficiaryId, users.uid, referralRewards.currency)
    .orderBy(desc(referralRewards.day), asc(referralRewards.beneficiaryId), asc(referralRewards.currency))
    .limit(params.pageSize)
    .offset((params.page - 1) * params.pageSize);
  const runs = await db.select().from(referralRuns).orderBy(desc(referralRuns.day)).limit(30);
  return {
    items: rows.map((r) => ({
      ...r,
      amount: new MoneyDecimal(r.amount).toFixed(),
      fees: new MoneyDecimal(r.fees).toFixed(),
    })),
    runs: runs.map((r) => ({ day: r.day, feePostings: r.feePostings, rewards: r.rewards, at: r.createdAt })),
  };
}
