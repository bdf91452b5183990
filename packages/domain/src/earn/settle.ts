import { MoneyDecimal } from "@northstar/shared/money";
import { EARN_CUSTODY_STATUSES, earnOrderMachine } from "@northstar/shared/state-machines";
import { and, asc, between, eq, gt, inArray, sql } from "drizzle-orm";
import { recordAudit } from "../audit/index.ts";
import { listCurrencyDecimals } from "../currencies/index.ts";
import type { Db, DbOrTx, Tx } from "../db/client.ts";
import { AppError } from "../errors.ts";
import type { User } from "../identity/index.ts";
import {
  type AccountIdCache,
  accountIdCache,
  type EntryInput,
  postEntries,
  postEntry,
} from "../ledger/index.ts";
import { getPolicy } from "../policy/index.ts";
import { transition, transitionMany } from "../state/index.ts";
import { addDays, daysDue, utcDay } from "./days.ts";
import { earnDailyRates, earnOrders, earnProducts, IN_CUSTODY } from "./earn.table.ts";
import { dayYield, type EarnOrder, redemptionQuote } from "./orders.ts";

async function lockOrder(tx: DbOrTx, id: number, userId?: number): Promise<EarnOrder> {
  const [o] = await tx
    .select()
    .from(earnOrders)
    .where(and(eq(earnOrders.id, id), userId === undefined ? undefined : eq(earnOrders.userId, userId)))
    .for("update");
  if (!o) {
    throw new AppError("EARN_ORDER_NOT_FOUND", {}, "order_id");
  }
  return o;
}

/**
 * Pays the yield days of locked orders that are due by `now` and not yet paid, each once (ledger key
 * per order and day), from the `earn_yield` expense account to the user's exchange wallet; then, at
 * maturity, returns the principal and completes the order. Set-based: whatever the number of orders,
 * a fixed number of statements (products, published rates, one ledger write, the yield days, one
 * update of the orders, the maturities), so the daily job keeps up with a million orders. Runs inside
 * the caller's transaction. A range product pays each day's published rate (its lower end if none
 * was published). Returns the days paid per order.
 */
async function payDueMany(
  tx: DbOrTx,
  locked: EarnOrder[],
  now: Date,
  cache?: AccountIdCache,
): Promise<Map<number, number>> {
  const paidDays = new Map<number, number>();
  const orders = locked.filter((o) => (EARN_CUSTODY_STATUSES as readonly string[]).includes(o.status));
  const owing = orders
    .map((o) => ({ o, due: daysDue(o.startDay, o.cycleDays, now) }))
    .filter(({ o, due }) => due > o.paidDays);
  // Every ledger entry of the batch (yields and maturities) goes in one write at the end: its
  // accounts are locked in one statement, in one order, and held only to the commit.
  const entries: EntryInput[] = [];
  if (owing.length > 0) {
    const published = await publishedRates(tx, owing);
    // Each day's yield is cut to its currency's decimals.
    const decimalsOf = new Map((await listCurrencyDecimals(tx)).map((c) => [c.code, c.decimals]));
    const days: { order_id: number; product_id: number; day: string; rate: string; amount: string }[] = [];
    const updates: { id: number; paid_days: number; profit: string }[] = [];
    for (const { o, due } of owing) {
      let profit = new MoneyDecimal(0);
      for (const { day, rate, amount } of yieldDays(o, due, published, decimalsOf.get(o.currency) ?? 0)) {
        days.push({ order_id: o.id, product_id: o.productId, day, rate, amount });
        if (new MoneyDecimal(amount).isZero()) {
          continue;
        }
        profit = profit.plus(amount);
        entries.push({
          idempotencyKey: `earn:order:${o.id}:yield:${day}`,
          kind: "earn.yield",
          reference: { type: "earn_order", id: o.id },
          postings: [
            { account: { system: "earn_yield", book: "real", currency: o.currency }, amount: `-${amount}` },
            { account: { userId: o.userId, book: "real", wallet: "exchange", currency: o.currency }, amount },
          ],
        });
      }
      updates.push({ id: o.id, paid_days: due, profit: profit.toFixed() });
      paidDays.set(o.id, due - o.paidDays);
    }
    // One JSON parameter per statement (as the ledger does): far cheaper to build and parse than a
    // parameter per value.
    for (let i = 0; i < days.length; i += YIELD_DAY_ROWS) {
      const rows = JSON.stringify(days.slice(i, i + YIELD_DAY_ROWS));
      await tx.execute(sql`
        insert into earn_yield_days (order_id, product_id, day, rate, amount)
        select order_id, product_id, day, rate, amount
        from jsonb_to_recordset(${rows}::jsonb)
          as v(order_id bigint, product_id bigint, day date, rate numeric, amount numeric)
        on conflict (order_id, day) do nothing`);
    }
    await tx.execute(sql`
      update earn_orders o set paid_days = v.paid_days, profit = o.profit + v.profit, updated_at = ${now.toISOString()}::timestamptz
      from jsonb_to_recordset(${JSON.stringify(updates)}::jsonb) as v(id bigint, paid_days int, profit numeric)
      where o.id = v.id`);
  }
  const matured = orders.filter((o) => daysDue(o.startDay, o.cycleDays, now) === o.cycleDays);
  for (const o of matured) {
    entries.push({
      idempotencyKey: `earn:order:${o.id}:mature`,
      kind: "earn.mature",
      reference: { type: "earn_order", id: o.id },
      postings: [
        { account: { system: "earn_custody", book: "real", currency: o.currency }, amount: `-${o.amount}` },
        {
          account: { userId: o.userId, book: "real", wallet: "exchange", currency: o.currency },
          amount: o.amount,
        },
      ],
    });
  }
  if (matured.length > 0) {
    await transitionMany(tx, {
      machine: earnOrderMachine,
      table: "earn_orders",
      by: "system",
      columns: { closed_at: "timestamptz" },
      rows: matured.map((o) => ({
        id: o.id,
        from: o.status,
        to: "completed" as const,
        values: { closed_at: now.toISOString() },
      })),
    });
  }
  await postEntries(tx, entries, cache);
  return paidDays;
}

/**
 * The published rates of the range products among `owing`, keyed `<product>|<day>`, over the days
 * they owe (a fixed-rate product pays its order's rate, so it needs none).
 */
async function publishedRates(
  tx: DbOrTx,
  owing: { o: EarnOrder; due: number }[],
): Promise<Map<string, string>> {
  const published = new Map<string, string>();
  if (owing.length === 0) {
    return published;
  }
  const productIds = [...new Set(owing.map(({ o }) => o.productId))];
  const products = await tx.select().from(earnProducts).where(inArray(earnProducts.id, productIds));
  const ranged = products.filter((p) => !new MoneyDecimal(p.rateMin).equals(p.rateMax)).map((p) => p.id);
  if (ranged.length > 0) {
    const firsts = owing.map(({ o }) => addDays(o.startDay, o.paidDays + 1)).sort();
    const lasts = owing.map(({ o, due }) => addDays(o.startDay, due)).sort();
    const rows = await tx
      .select({ productId: earnDailyRates.productId, day: earnDailyRates.day, rate: earnDailyRates.rate })
      .from(earnDailyRates)
      .where(
        and(
          inArray(earnDailyRates.productId, ranged),
          between(earnDailyRates.day, firsts[0] as string, lasts.at(-1) as string),
        ),
      )
      .orderBy(asc(earnDailyRates.productId), asc(earnDailyRates.day), asc(earnDailyRates.id));
    for (const r of rows) {
      published.set(`${r.productId}|${r.day}`, r.rate);
    }
  }
  return published;
}

/**
 * The yield days an order is owed after its paid ones up to `due`: each day's rate and amount, the
 * amount cut to the currency's `decimals`.
 */
function yieldDays(o: EarnOrder, due: number, published: Map<string, string>, decimals: number) {
  const days: { day: string; rate: string; amount: string }[] = [];
  for (let k = o.paidDays + 1; k <= due; k++) {
    const day = addDays(o.startDay, k);
    const rate = published.get(`${o.productId}|${day}`) ?? o.dailyRate;
    days.push({ day, rate, amount: dayYield(o.amount, rate, decimals) });
  }
  return days;
}

/**
 * What custody owes each user at `now`, per currency, for the proof of liabilities: the principal
 * of every order in custody (held in the `earn_custody` account) and the yield accrued and not yet
 * paid (days due by `now` that the daily job has not paid: the same days, rates and amounts it will
 * pay). By user, then currency; with `userId`, that user's alone (the assets overview).
 */
export async function custodyClaims(
  db: DbOrTx,
  now = new Date(),
  userId?: number,
): Promise<{ userId: number; currency: string; principal: string; accruedYield: string }[]> {
  const principal = await db.execute<{ user_id: string; currency: string; principal: string }>(sql`
    select user_id, currency, sum(amount)::text as principal from earn_orders
    where status in ${IN_CUSTODY}${userId === undefined ? sql`` : sql` and user_id = ${userId}`}
    group by user_id, currency
    order by user_id, currency`);
  const today = utcDay(now);
  const due = await db
    .select()
    .from(earnOrders)
    .where(
      and(
        sql`${earnOrders.status} in ${IN_CUSTODY}`,
        userId === undefined ? undefined : eq(earnOrders.userId, userId),
        sql`(${earnOrders.paidDays} < least(${earnOrders.cycleDays}, ${today}::date - ${earnOrders.startDay}))`,
      ),
    )
    .orderBy(asc(earnOrders.id));
  const owing = due.map((o) => ({ o, due: daysDue(o.startDay, o.cycleDays, now) }));
  const published = await publishedRates(db, owing);
  const decimalsOf = new Map((await listCurrencyDecimals(db)).map((c) => [c.code, c.decimals]));
  const claims = new Map<
    string,
    { userId: number; currency: string; principal: string; accruedYield: string }
  >();
  for (const r of principal.rows) {
    const userId = Number(r.user_id);
    claims.set(`${userId}|${r.currency}`, {
      userId,
      currency: r.currency,
      principal: r.principal,
      accruedYield: "0",
    });
  }
  for (const { o, due: d } of owing) {
    const claim = claims.get(`${o.userId}|${o.currency}`);
    if (!claim) {
      continue;
    }
    const accrued = yieldDays(o, d, published, decimalsOf.get(o.currency) ?? 0).reduce(
      (sum, y) => sum.plus(y.amount),
      new MoneyDecimal(claim.accruedYield),
    );
    claim.accruedYield = accrued.toFixed();
  }
  // In the principal query's order: by user, then currency.
  return [...claims.values()];
}

/** Yield-day rows per insert statement. */
const YIELD_DAY_ROWS = 10_000;

async function payDue(tx: DbOrTx, o: EarnOrder, now: Date): Promise<number> {
  return (await payDueMany(tx, [o], now)).get(o.id) ?? 0;
}

/** Pays what one order is due; safe to run any number of times. */
export async function settleOrder(db: Db, orderId: number, now = new Date()): Promise<number> {
  return db.transaction(async (tx) => payDue(tx, await lockOrder(tx, orderId), now));
}

/**
 * The daily job: every order in custody with a yield day or maturity due by `now`, in id order,
 * `batch` orders per transaction (locked, then paid set-based). A job that did not run for days pays
 * every missed day (each once); delivered twice, the second run finds nothing due.
 *
 * `lanes` transactions run side by side on their own connections, so the database's work of one
 * batch overlaps another's. Each lane locks the next batch after the previous lane's batch, one lane
 * at a time (`claimNext`), so batches never share an order; the accounts they share (the
 * `earn_yield` account, holders of orders in both) are locked in one order by the ledger.
 */
export async function runDailyYield(db: Db, now = new Date(), batch = 2000, lanes = 2) {
  const today = utcDay(now);
  const cache = accountIdCache(db);
  let orders = 0;
  let days = 0;
  let after = 0;
  let done = false;
  let claimed: Promise<unknown> = Promise.resolve();
  /** Locks the next batch after the last one claimed; lanes claim one at a time, in turn. */
  const claimNext = (tx: Tx): Promise<EarnOrder[]> => {
    const claim = claimed.then(async () => {
      if (done) {
        return [];
      }
      const locked = await tx
        .select()
        .from(earnOrders)
        .where(
          and(
            // earn_orders_custody_idx's own predicate: the planner walks that index in id order and
            // stops at the batch's end.
            sql`${earnOrders.status} in ${IN_CUSTODY}`,
            gt(earnOrders.id, after),
            sql`(${earnOrders.paidDays} < least(${earnOrders.cycleDays}, ${today}::date - ${earnOrders.startDay}))`,
          ),
        )
        .orderBy(asc(earnOrders.id))
        .limit(batch)
        .for("update");
      after = locked.at(-1)?.id ?? after;
      done ||= locked.length < batch;
      return locked;
    });
    claimed = claim.catch(() => {});
    return claim;
  };
  const lane = async () => {
    try {
      while (!done) {
        await db.transaction(async (tx) => {
          const paid = await payDueMany(tx, await claimNext(tx), now, cache);
          for (const n of paid.values()) {
            orders += n > 0 ? 1 : 0;
            days += n;
          }
        });
      }
    } catch (error) {
      // The other lanes stop at their next batch; the whole run is safe to repeat.
      done = true;
      throw error;
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, lanes) }, lane));
  return { orders, days, day: today };
}

type Review = { orderId: number; operatorId: number; actor: string };

/** Settles a redemption: pays the yield due, then the principal minus the penalty; the penalty to fees. */
async function settleRedemption(tx: DbOrTx, o: EarnOrder, by: "operator" | "system", now: Date) {
  await payDue(tx, o, now);
  const [after] = await tx.select().from(earnOrders).where(eq(earnOrders.id, o.id));
  if (after?.status !== "redeeming") {
    // Matured while waiting: the principal came back whole.
    return after;
  }
  const [p] = await tx.select().from(earnProducts).where(eq(earnProducts.id, o.productId));
  const quote = await redemptionQuote(tx, after, p?.redemptionRule ?? "percent", now);
  const postings = [
    {
      account: { system: "earn_custody" as const, book: "real" as const, currency: o.currency },
      amount: `-${o.amount}`,
    },
    {
      account: { userId: o.userId, book: "real" as const, wallet: "exchange" as const, currency: o.currency },
      amount: quote.returned,
    },
    {
      account: { system: "fees" as const, book: "real" as const, currency: o.currency },
      amount: quote.penalty,
    },
  ].filter((posting) => !new MoneyDecimal(posting.amount).isZero());
  await postEntry(tx, {
    idempotencyKey: `earn:order:${o.id}:redeem`,
    kind: "earn.redeem",
    reference: { type: "earn_order", id: o.id },
    postings,
  });
  await transition(tx, {
    machine: earnOrderMachine,
    table: earnOrders,
    id: o.id,
    from: "redeeming",
    to: "redeemed",
    by,
    set: { penalty: quote.penalty, closedAt: now, updatedAt: now },
  });
  const [done] = await tx.select().from(earnOrders).where(eq(earnOrders.id, o.id));
  return done;
}

/**
 * The user asks to redeem early (or re-applies after a rejection). Without review by policy it
 * settles at once; otherwise it waits in the operators' queue as `redeeming`.
 */
export async function requestRedemption(db: Db, user: User, orderId: number, now = new Date()) {
  return db.transaction(async (tx) => {
    const o = await lockOrder(tx, orderId, user.id);
    if (o.status !== "holding" && o.status !== "redemption_rejected") {
      throw new AppError("EARN_NOT_REDEEMABLE");
    }
    if (daysDue(o.startDay, o.cycleDays, now) >= o.cycleDays) {
      // Matured: the daily job returns it whole.
      throw new AppError("EARN_NOT_REDEEMABLE");
    }
    await transition(tx, {
      machine: earnOrderMachine,
      table: earnOrders,
      id: o.id,
      from: o.status,
      to: "redeeming",
      by: "user",
      set: { redeemRequestedAt: now, rejectReason: null, updatedAt: now },
    });
    const redeeming = { ...o, status: "redeeming" as const };
    if (await getPolicy(tx, "earn.redemption.review")) {
      return { status: "redeeming" as const };
    }
    const done = await settleRedemption(tx, redeeming, "system", now);
    return { status: done?.status ?? "redeeming", penalty: done?.penalty ?? null };
  });
}

export async function approveRedemption(db: Db, params: Review, now = new Date()) {
  return db.transaction(async (tx) => {
    const o = await lockOrder(tx, params.orderId);
    if (o.status !== "redeeming") {
      throw new AppError("ALREADY_REVIEWED");
    }
    const done = await settleRedemption(tx, o, "operator", now);
    await recordAudit(tx, {
      actor: params.actor,
      action: "earn.redemption.approve",
      subject: String(o.id),
      details: { penalty: done?.penalty ?? null },
    });
    return done;
  });
}

export async function rejectRedemption(db: Db, params: Review & { reason: string }, now = new Date()) {
  return db.transaction(async (tx) => {
    const o = await lockOrder(tx, params.orderId);
    const ok =
      o.status === "redeeming" &&
      (await transition(tx, {
        machine: earnOrderMachine,
        table: earnOrders,
        id: o.id,
        from: "redeeming",
        to: "redemption_rejected",
        by: "operator",
        set: { rejectReason: params.reason, reviewedBy: params.operatorId, updatedAt: now },
      }));
    if (!ok) {
      throw new AppError("ALREADY_REVIEWED");
    }
    await recordAudit(tx, {
      actor: params.actor,
      action: "earn.redemption.reject",
      subject: String(o.id),
      details: { reason: params.reason },
    });
  });
}

/** Orders for the back office, optionally of one status, latest first. */
export async function listOrdersForReview(
  db: DbOrTx,
  statuses: string[] | undefined,
  page: number,
  pageSize: number,
) {
  return db
    .select()
    .from(earnOrders)
    .where(statuses?.length ? inArray(earnOrders.status, statuses as never) : undefined)
    .orderBy(sql`${earnOrders.createdAt} desc`, sql`${earnOrders.id} desc`)
    .limit(pageSize)
    .offset((page - 1) * pageSize);
}
