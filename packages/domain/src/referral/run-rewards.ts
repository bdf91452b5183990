import { MoneyDecimal } from "@northstar/shared/money";
import { desc, sql } from "drizzle-orm";
import { listCurrencyDecimals } from "../currencies/index.ts";
import type { Db, DbOrTx } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { type EntryInput, postEntries } from "../ledger/index.ts";
import { getPolicy } from "../policy/index.ts";
import { referralRewards, referralRuns } from "./referral.table.ts";

/** Journal entry kinds whose postings to the fee account are trading fees (spot fills, contracts). */
const TRADING_FEE_KINDS = sql`(e.kind = 'spot.trade' or e.kind like 'contract.%')`;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
export const utcDay = (at: Date) => at.toISOString().slice(0, 10);
export const addDays = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/**
 * The trading fees each real account paid on `day` (UTC), per currency, from the ledger: every
 * posting to the real book's fee account in an entry of a trading kind. A contract entry has one
 * user; a spot fill has up to two, and a side's fee is in the currency it receives (a buyer pays in
 * the base, a seller in the quote), so the payer of a fee in currency C is the user whose held
 * posting (what their order gave) is in the other currency.
 */
export async function dayTradingFees(db: DbOrTx, day: string) {
  const from = `${day}T00:00:00Z`;
  const to = `${addDays(day, 1)}T00:00:00Z`;
  const rows = await db.execute<{ user_id: string; currency: string; fee: string; postings: string }>(sql`
    with fee as (
      select p.entry_id, p.currency, p.amount, e.kind
      from postings p
      join ledger_accounts a on a.id = p.account_id
      join journal_entries e on e.id = p.entry_id
      where a.system_code = 'fees' and a.book = 'real' and p.amount > 0
        and e.created_at >= ${from}::timestamptz and e.created_at < ${to}::timestamptz
        and ${TRADING_FEE_KINDS}
    ), paid as (
      select fee.currency, fee.amount, (
        select ua.user_id from postings up
        join ledger_accounts ua on ua.id = up.account_id
        where up.entry_id = fee.entry_id and ua.user_id is not null
          and (fee.kind <> 'spot.trade'
            or (ua.bucket = 'held' and up.amount < 0 and ua.currency <> fee.currency))
        order by ua.user_id
        limit 1
      ) as user_id
      from fee
    )
    select user_id, currency, sum(amount)::text as fee, count(*)::text as postings
    from paid where user_id is not null
    group by user_id, currency
    order by user_id, currency`);
  return rows.rows.map((r) => ({
    userId: Number(r.user_id),
    currency: r.currency,
    fee: r.fee,
    postings: Number(r.postings),
  }));
}

/** Each payer's inviters up to `levels` levels: (invitee, beneficiary, level), nearest first. */
async function inviterChains(db: DbOrTx, payers: number[], levels: number) {
  if (payers.length === 0) {
    return [];
  }
  const rows = await db.execute<{ invitee: string; beneficiary: string; level: number }>(sql`
    with recursive chain(invitee, beneficiary, level) as (
      select u.id, u.invited_by, 1 from users u
      where u.id = any(${`{${payers.join(",")}}`}::bigint[]) and u.invited_by is not null
      union all
      select c.invitee, u.invited_by, c.level + 1 from chain c
      join users u on u.id = c.beneficiary
      where c.level < ${levels} and u.invited_by is not null
    )
    select invitee, beneficiary, level from chain order by invitee, level`);
  return rows.rows.map((r) => ({
    invitee: Number(r.invitee),
    beneficiary: Number(r.beneficiary),
    level: Number(r.level),
  }));
}

export interface ReferralDayResult {
  day: string;
  /** False when the day had been paid before: nothing moved. */
  applied: boolean;
  feePostings: number;
  rewards: number;
  /** What was paid per currency. */
  paid: Record<string, string>;
}

/**
 * Computes and pays one ended UTC day's referral rewards, once: each inviter up to the policy's
 * levels (`referral.levelRates`) gets their level's share of each invitee's fees of the day, rounded
 * down to the currency's decimals, paid from the fee account to their exchange wallet, one entry per
 * inviter and currency. The shares sum to at most 1 (policy bound), and the rounding only lowers
 * them, so no fee pays out more than itself (checked again here).
 */
export async function runReferralDay(db: Db, day: string, now = new Date()): Promise<ReferralDayResult> {
  if (!DAY.test(day) || Number.isNaN(Date.parse(`${day}T00:00:00Z`)) || day >= utcDay(now)) {
    throw new AppError("REFERRAL_DAY_NOT_ENDED", { day }, "day");
  }
  const [rates, decimals] = await Promise.all([
    getPolicy(db, "referral.levelRates"),
    listCurrencyDecimals(db),
  ]);
  const places = new Map(decimals.map((c) => [c.code, c.decimals]));
  return db.transaction(async (tx) => {
    const [run] = await tx
      .insert(referralRuns)
      .values({ day })
      .onConflictDoNothing()
      .returning({ day: referralRuns.day });
    if (!run) {
      return { day, applied: false, feePostings: 0, rewards: 0, paid: {} };
    }
    const fees = await dayTradingFees(tx, day);
    const chains = await inviterChains(tx, [...new Set(fees.map((f) => f.userId))], rates.length);
    const byInvitee = new Map<number, typeof chains>();
    for (const c of chains) {
      byInvitee.set(c.invitee, [...(byInvitee.get(c.invitee) ?? []), c]);
    }
    const rows: (typeof referralRewards.$inferInsert)[] = [];
    for (const f of fees) {
      const dp = places.get(f.currency) ?? 8;
      let total = new MoneyDecimal(0);
      for (const link of byInvitee.get(f.userId) ?? []) {
        const rate = rates[link.level - 1] as string;
        const amount = new MoneyDecimal(f.fee).times(rate).toDecimalPlaces(dp, MoneyDecimal.ROUND_DOWN);
        total = total.plus(amount);
        if (amount.isZero()) {
          continue;
        }
        rows.push({
          day,
          beneficiaryId: link.beneficiary,
          inviteeId: f.userId,
          level: link.level,
          currency: f.currency,
          fee: f.fee,
          rate,
          amount: amount.toFixed(),
        });
      }
      if (total.greaterThan(f.fee)) {
        throw new Error(
          `referral ${day}: rewards ${total.toFixed()} exceed the fee ${f.fee} of user ${f.userId}`,
        );
      }
    }
    for (let i = 0; i < rows.length; i += 1000) {
      await tx.insert(referralRewards).values(rows.slice(i, i + 1000));
    }
    const payouts = new Map<string, { beneficiary: number; currency: string; amount: MoneyDecimal }>();
    for (const r of rows) {
      const key = `${r.beneficiaryId}:${r.currency}`;
      const p = payouts.get(key) ?? {
        beneficiary: r.beneficiaryId,
        currency: r.currency,
        amount: new MoneyDecimal(0),
      };
      p.amount = p.amount.plus(r.amount);
      payouts.set(key, p);
    }
    const entries: EntryInput[] = [...payouts.values()].map((p) => ({
      idempotencyKey: `referral:${day}:${p.beneficiary}:${p.currency}`,
      kind: "referral.reward",
      reference: { type: "referral_day", id: day },
      postings: [
        { account: { system: "fees", book: "real", currency: p.currency }, amount: p.amount.neg().toFixed() },
        {
          account: { userId: p.beneficiary, book: "real", wallet: "exchange", currency: p.currency },
          amount: p.amount.toFixed(),
        },
      ],
    }));
    for (let i = 0; i < entries.length; i += 500) {
      await postEntries(tx, entries.slice(i, i + 500));
    }
    const feePostings = fees.reduce((s, f) => s + f.postings, 0);
    await tx
      .update(referralRuns)
      .set({ feePostings, rewards: rows.length })
      .where(sql`${referralRuns.day} = ${day}`);
    const paid: Record<string, string> = {};
    for (const p of payouts.values()) {
      paid[p.currency] = new MoneyDecimal(paid[p.currency] ?? 0).plus(p.amount).toFixed();
    }
    return { day, applied: true, feePostings, rewards: rows.length, paid };
  });
}

/**
 * The daily job's run: every ended day not paid yet, oldest first, from the day after the last paid
 * one (yesterday on a first run) to yesterday, so days missed while no worker ran are paid when one is
 * back; delivered twice, the second run pays nothing.
 */
export async function runReferralRewards(db: Db, now = new Date()) {
  const yesterday = addDays(utcDay(now), -1);
  const [last] = await db
    .select({ day: referralRuns.day })
    .from(referralRuns)
    .orderBy(desc(referralRuns.day))
    .limit(1);
  const results: ReferralDayResult[] = [];
  for (let day = last ? addDays(last.day, 1) : yesterday; day <= yesterday; day = addDays(day, 1)) {
    results.push(await runReferralDay(db, day, now));
  }
  return { days: results.filter((r) => r.applied).map((r) => r.day), results };
}
