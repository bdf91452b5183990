import { overnightCharge } from "@northstar/shared/contract-math";
import { MoneyDecimal } from "@northstar/shared/money";
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { getPolicy } from "../policy/index.ts";
import { contractOvernight, contractPositions } from "./contracts.table.ts";
import { postOvernight } from "./money-moves.ts";
import { latestContractTick } from "./ticks.ts";

/** The instant a day's overnight interest is due: the policy hour (UTC) of that day. */
export const overnightInstant = (day: string, hour: number) =>
  new Date(`${day}T${String(hour).padStart(2, "0")}:00:00.000Z`);

export type OvernightResult = "charged" | "already" | "not_holding" | "not_due" | "no_price";

/**
 * Charges one position one day's overnight interest (notional at the last recorded price at the due
 * instant, whose tick id the charge keeps, × the position's daily rate, never more than its margin), taken from its margin to the
 * house. The (position, day) row is the run-once record: a job delivered twice charges once. A
 * position opened after the due instant, or closed before it, is not charged for that day.
 */
export async function chargeOvernight(
  db: Db,
  positionId: number,
  day: string,
  now = new Date(),
): Promise<OvernightResult> {
  const hour = await getPolicy(db, "contracts.overnightHourUtc");
  const due = overnightInstant(day, hour);
  if (due.getTime() > now.getTime()) {
    return "not_due";
  }
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(contractPositions)
      .where(eq(contractPositions.id, positionId))
      .for("update");
    if (row?.status !== "holding" || !row.openedAt || row.openedAt.getTime() >= due.getTime()) {
      return "not_holding";
    }
    const tick = await latestContractTick(tx, row.symbol, due);
    if (!tick) {
      return "no_price";
    }
    const amount = MoneyDecimal.min(
      overnightCharge(tick.price, row.lots, row.contractSize, row.overnightRate),
      row.margin,
    ).toFixed();
    const inserted = await tx
      .insert(contractOvernight)
      .values({ positionId, day, price: tick.price, tickId: tick.id, amount })
      .onConflictDoNothing()
      .returning({ day: contractOvernight.day });
    if (inserted.length === 0) {
      return "already";
    }
    if (new MoneyDecimal(amount).isZero()) {
      return "charged";
    }
    await tx
      .update(contractPositions)
      .set({
        margin: new MoneyDecimal(row.margin).minus(amount).toFixed(),
        overnightTotal: new MoneyDecimal(row.overnightTotal).plus(amount).toFixed(),
        updatedAt: new Date(),
      })
      .where(and(eq(contractPositions.id, positionId), eq(contractPositions.status, "holding")));
    await postOvernight(tx, row, day, amount);
    return "charged";
  });
}

/**
 * Every (position, day) still owed at `now`: for each holding position, each day whose due instant
 * is after its opening and not after `now`, not charged yet; oldest first, at most `limit`. A worker
 * down across several days finds all of them when it comes back.
 */
export async function dueOvernightCharges(
  db: Db,
  now = new Date(),
  limit = 5000,
): Promise<{ positionId: number; day: string }[]> {
  const hour = await getPolicy(db, "contracts.overnightHourUtc");
  const rows = await db.execute<{ position_id: number; day: string }>(sql`
    select p.id as position_id, to_char(d.day, 'YYYY-MM-DD') as day
    from contract_positions p
    cross join lateral generate_series(
      date_trunc('day', p.opened_at at time zone 'UTC'),
      date_trunc('day', ${now.toISOString()}::timestamptz at time zone 'UTC'),
      interval '1 day') as d(day)
    where p.status = 'holding'
      and (d.day + make_interval(hours => ${hour})) at time zone 'UTC' > p.opened_at
      and (d.day + make_interval(hours => ${hour})) at time zone 'UTC' <= ${now.toISOString()}::timestamptz
      and not exists (select 1 from contract_overnight o where o.position_id = p.id and o.day = d.day::date)
    order by d.day, p.id
    limit ${limit}`);
  return rows.rows.map((r) => ({ positionId: Number(r.position_id), day: r.day }));
}

/**
 * One run of the overnight job: charges every (position, day) owed at `now`, oldest first, each in
 * its own transaction. Idempotent: a run delivered twice, or two runs at once, charge nothing twice.
 */
export async function runOvernightCharges(
  db: Db,
  now = new Date(),
): Promise<{ charged: number; skipped: number }> {
  let charged = 0;
  let skipped = 0;
  for (;;) {
    const due = await dueOvernightCharges(db, now, 1000);
    let progress = 0;
    for (const { positionId, day } of due) {
      const result = await chargeOvernight(db, positionId, day, now);
      if (result === "charged") {
        charged++;
        progress++;
      } else {
        skipped++;
      }
    }
    // A day with no recorded price yet is left for the next run.
    if (due.length < 1000 || progress === 0) {
      return { charged, skipped };
    }
  }
}
