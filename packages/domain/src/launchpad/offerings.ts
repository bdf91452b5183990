import {
  LAUNCHPAD_QUANTITY_DECIMALS,
  launchpadCost,
  type TLaunchpadOfferingInput,
  type TLaunchpadSubscribe,
} from "@northstar/shared/contracts/launchpad";
import { fitsNumeric, MoneyDecimal } from "@northstar/shared/money";
import { launchpadOfferingMachine, launchpadSubscriptionMachine } from "@northstar/shared/state-machines";
import { and, asc, desc, eq, isNull, lte, sql } from "drizzle-orm";
import { recordAudit } from "../audit/index.ts";
import { assertAmountDecimals, findCurrency } from "../currencies/index.ts";
import type { Db, DbOrTx } from "../db/client.ts";
import { AppError } from "../errors.ts";
import type { OnceRecorder } from "../idempotency/index.ts";
import type { User } from "../identity/index.ts";
import { holdFunds, type PostingInput, postEntry, releaseFunds } from "../ledger/index.ts";
import { getPolicy } from "../policy/index.ts";
import { transition } from "../state/index.ts";
import { launchpadOfferings, launchpadSubscriptions } from "./launchpad.table.ts";

export type Offering = typeof launchpadOfferings.$inferSelect;
export type Subscription = typeof launchpadSubscriptions.$inferSelect;
const DAY_MS = 86_400_000;
const fixed = (v: string) => new MoneyDecimal(v).toFixed();

export function offeringView(o: Offering, subscribed = "0") {
  return {
    id: o.id,
    coin: o.coin,
    name: o.name,
    payCurrency: o.payCurrency,
    issuePrice: fixed(o.issuePrice),
    subscribePrice: fixed(o.subscribePrice),
    totalQuantity: fixed(o.totalQuantity),
    minQuantity: fixed(o.minQuantity),
    maxQuantity: fixed(o.maxQuantity),
    subscribed: fixed(subscribed),
    startsAt: o.startsAt,
    endsAt: o.endsAt,
    lockDays: o.lockDays,
    listingDay: o.listingDay,
    circulation: fixed(o.circulation),
    status: o.status,
    failReason: o.failReason,
  };
}

export async function createOffering(db: DbOrTx, input: TLaunchpadOfferingInput, actor: string) {
  if (
    input.ends_at <= input.starts_at ||
    new MoneyDecimal(input.min_quantity).greaterThan(input.max_quantity)
  ) {
    throw new AppError("FIELD_INVALID", { field: "ends_at" }, "ends_at");
  }
  // Quantities are of the new coin, held to LAUNCHPAD_QUANTITY_DECIMALS.
  for (const field of ["total_quantity", "min_quantity", "max_quantity"] as const) {
    if (new MoneyDecimal(input[field]).decimalPlaces() > LAUNCHPAD_QUANTITY_DECIMALS) {
      throw new AppError("AMOUNT_INVALID", {}, field);
    }
  }
  if (!(await findCurrency(db, input.pay_currency))) {
    throw new AppError("FIELD_INVALID", { field: "pay_currency" }, "pay_currency");
  }
  const [row] = await db
    .insert(launchpadOfferings)
    .values({
      coin: input.coin,
      name: input.name,
      payCurrency: input.pay_currency,
      issuePrice: input.issue_price,
      subscribePrice: input.subscribe_price,
      totalQuantity: input.total_quantity,
      minQuantity: input.min_quantity,
      maxQuantity: input.max_quantity,
      startsAt: input.starts_at,
      endsAt: input.ends_at,
      lockDays: input.lock_days,
      listingDay: input.listing_day,
      circulation: input.circulation,
    })
    .returning();
  if (!row) {
    throw new AppError("REQUEST_ERROR");
  }
  await recordAudit(db, {
    actor,
    action: "launchpad.offering.create",
    subject: String(row.id),
    details: { coin: input.coin },
  });
  return offeringView(row);
}

/** The decimals the pay currency is held to: every amount paid or frozen in it is rounded to them. */
async function payDecimals(tx: DbOrTx, currency: string): Promise<number> {
  const found = await findCurrency(tx, currency);
  if (!found) {
    throw new Error(`launchpad: pay currency ${currency} is not held on the platform`);
  }
  return found.decimals;
}

/** Offerings, latest first, with the quantity subscribed so far. */
export async function listOfferings(db: DbOrTx) {
  const rows = await db
    .select({
      o: launchpadOfferings,
      subscribed: sql<string>`coalesce((select sum(s.quantity) from launchpad_subscriptions s where s.offering_id = ${launchpadOfferings.id}), 0)`,
    })
    .from(launchpadOfferings)
    .orderBy(desc(launchpadOfferings.startsAt), desc(launchpadOfferings.id));
  return rows.map((r) => offeringView(r.o, r.subscribed));
}

/**
 * A user subscribes in the window: quantity within the per-user minimum and maximum and at most
 * LAUNCHPAD_QUANTITY_DECIMALS decimals, once per offering; quantity × subscribe price, rounded up to
 * the pay currency's decimals, is frozen in the exchange wallet through the ledger.
 *
 * The offering row is read FOR SHARE: the allocation and a failed issuance lock it FOR UPDATE, so a
 * subscription either commits before they read the subscriptions (and is allocated or refunded with
 * the rest) or reads the offering after them (no longer open: refused). None can be left frozen on
 * an offering already allocated.
 */
export async function subscribe(
  db: Db,
  user: User,
  input: TLaunchpadSubscribe,
  now = new Date(),
  once?: OnceRecorder,
) {
  if (user.kind !== "real") {
    throw new AppError("REAL_ACCOUNT_REQUIRED");
  }
  return db.transaction(async (tx) => {
    const [o] = await tx
      .select()
      .from(launchpadOfferings)
      .where(eq(launchpadOfferings.id, input.offering_id))
      .for("share");
    if (!o) {
      throw new AppError("LAUNCHPAD_NOT_FOUND", {}, "offering_id");
    }
    if (o.status !== "open" || now < o.startsAt || now >= o.endsAt) {
      throw new AppError("LAUNCHPAD_NOT_OPEN");
    }
    const quantity = new MoneyDecimal(input.quantity);
    // The coin is held to this many decimals once listed (it becomes a currency then).
    assertAmountDecimals(quantity, LAUNCHPAD_QUANTITY_DECIMALS, "quantity");
    if (quantity.lessThan(o.minQuantity) || quantity.greaterThan(o.maxQuantity)) {
      throw new AppError(
        "LAUNCHPAD_QUANTITY_RANGE",
        { min: fixed(o.minQuantity), max: fixed(o.maxQuantity) },
        "quantity",
      );
    }
    const cost = launchpadCost(quantity, o.subscribePrice, await payDecimals(tx, o.payCurrency));
    if (!fitsNumeric(cost)) {
      throw new AppError("AMOUNT_TOO_LARGE", {}, "quantity");
    }
    const frozen = cost.toFixed();
    const [row] = await tx
      .insert(launchpadSubscriptions)
      .values({
        offeringId: o.id,
        userId: user.id,
        quantity: quantity.toFixed(),
        frozen,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing()
      .returning();
    if (!row) {
      throw new AppError("LAUNCHPAD_ALREADY_SUBSCRIBED");
    }
    await holdFunds(tx, {
      userId: user.id,
      book: "real",
      wallet: "exchange",
      currency: o.payCurrency,
      amount: frozen,
      idempotencyKey: `launchpad:sub:${row.id}:hold`,
      kind: "launchpad.subscribe",
      reference: { type: "launchpad_subscription", id: row.id },
    });
    const answer = subscriptionView(row, o);
    await once?.record(tx, answer);
    return answer;
  });
}

/** A subscription record with every figure SPEC section 3 lists. */
export function subscriptionView(s: Subscription, o: Offering) {
  return {
    id: s.id,
    offeringId: o.id,
    coin: o.coin,
    name: o.name,
    payCurrency: o.payCurrency,
    issuePrice: fixed(o.issuePrice),
    subscribePrice: fixed(o.subscribePrice),
    quantity: fixed(s.quantity),
    passedQuantity: fixed(s.passedQuantity),
    remainingQuantity: new MoneyDecimal(s.quantity).minus(s.passedQuantity).toFixed(),
    frozen: s.status === "reviewing" ? fixed(s.frozen) : "0",
    subscribedAmount: fixed(s.frozen),
    fee: fixed(s.fee),
    refunded: fixed(s.refunded),
    lockDays: o.lockDays,
    listingDay: o.listingDay,
    circulation: fixed(o.circulation),
    validUntil: o.endsAt,
    unlockAt: s.unlockAt,
    unlocked: s.unlockedAt !== null,
    status: s.status,
    failReason: s.failReason,
    rejectReason: s.rejectReason,
    createdAt: s.createdAt,
  };
}

export async function listUserSubscriptions(db: DbOrTx, userId: number, page: number, pageSize: number) {
  const rows = await db
    .select({ s: launchpadSubscriptions, o: launchpadOfferings })
    .from(launchpadSubscriptions)
    .innerJoin(launchpadOfferings, eq(launchpadOfferings.id, launchpadSubscriptions.offeringId))
    .where(eq(launchpadSubscriptions.userId, userId))
    .orderBy(desc(launchpadSubscriptions.createdAt), desc(launchpadSubscriptions.id))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  return rows.map((r) => subscriptionView(r.s, r.o));
}

async function lockOffering(tx: DbOrTx, id: number) {
  const [o] = await tx.select().from(launchpadOfferings).where(eq(launchpadOfferings.id, id)).for("update");
  if (!o) {
    throw new AppError("LAUNCHPAD_NOT_FOUND", {}, "offering_id");
  }
  return o;
}

async function reviewing(tx: DbOrTx, offeringId: number) {
  return tx
    .select()
    .from(launchpadSubscriptions)
    .where(
      and(eq(launchpadSubscriptions.offeringId, offeringId), eq(launchpadSubscriptions.status, "reviewing")),
    )
    .orderBy(asc(launchpadSubscriptions.id))
    .for("update");
}

/**
 * The allocation at the close. Every subscription gets what it asked when the total suffices;
 * otherwise its pro-rata share, cut (never rounded up) to 8 decimals, so the sum never exceeds the
 * total. What passed is paid from the frozen amount (plus the policy fee on it) and the coins are
 * credited locked until the lock-up ends; the rest is released. Nothing left: `sold_out`, refunded.
 * The cost of what passed is rounded up to the pay currency's decimals (as the frozen amount was,
 * so it never exceeds it), the fee down; the refund is the exact rest.
 *
 * The offering is locked FOR UPDATE before the subscriptions are read: a subscription in progress
 * holds it FOR SHARE, so this waits for it to commit and then sees it (see `subscribe`).
 */
export async function allocateOffering(db: Db, offeringId: number, actor: string, now = new Date()) {
  return db.transaction(async (tx) => {
    const o = await lockOffering(tx, offeringId);
    if (o.status !== "open") {
      throw new AppError("ALREADY_REVIEWED");
    }
    if (now < o.endsAt) {
      throw new AppError("LAUNCHPAD_NOT_CLOSED");
    }
    const subs = await reviewing(tx, o.id);
    const requested = subs.reduce((sum, s) => sum.plus(s.quantity), new MoneyDecimal(0));
    const total = new MoneyDecimal(o.totalQuantity);
    const feeRate = await getPolicy(tx, "launchpad.feeRate");
    const decimals = await payDecimals(tx, o.payCurrency);
    const unlockAt = new Date(now.getTime() + o.lockDays * DAY_MS);
    let allocated = new MoneyDecimal(0);
    for (const s of subs) {
      const passed = requested.lessThanOrEqualTo(total)
        ? new MoneyDecimal(s.quantity)
        : new MoneyDecimal(s.quantity)
            .times(total)
            .dividedBy(requested)
            .toDecimalPlaces(LAUNCHPAD_QUANTITY_DECIMALS, MoneyDecimal.ROUND_DOWN);
      allocated = allocated.plus(passed);
      const cost = launchpadCost(passed, o.subscribePrice, decimals);
      // The fee comes out of the frozen amount too: never more than what is left of it.
      const fee = MoneyDecimal.min(
        cost.times(feeRate).toDecimalPlaces(decimals, MoneyDecimal.ROUND_DOWN),
        new MoneyDecimal(s.frozen).minus(cost),
      );
      const refund = new MoneyDecimal(s.frozen).minus(cost).minus(fee);
      const payer = { userId: s.userId, book: "real" as const, wallet: "exchange" as const };
      const postings: PostingInput[] = [
        { account: { ...payer, currency: o.payCurrency, bucket: "held" }, amount: `-${s.frozen}` },
      ];
      if (!refund.isZero()) {
        postings.push({ account: { ...payer, currency: o.payCurrency }, amount: refund.toFixed() });
      }
      if (!cost.isZero()) {
        postings.push({
          account: { system: "launchpad_issuer", book: "real", currency: o.payCurrency },
          amount: cost.toFixed(),
        });
        postings.push({
          account: { system: "launchpad_issuer", book: "real", currency: o.coin },
          amount: `-${passed.toFixed()}`,
        });
        postings.push({ account: { ...payer, currency: o.coin, bucket: "held" }, amount: passed.toFixed() });
      }
      if (!fee.isZero()) {
        postings.push({
          account: { system: "fees", book: "real", currency: o.payCurrency },
          amount: fee.toFixed(),
        });
      }
      await postEntry(tx, {
        idempotencyKey: `launchpad:sub:${s.id}:allocate`,
        kind: "launchpad.allocate",
        reference: { type: "launchpad_subscription", id: s.id },
        postings,
      });
      await transition(tx, {
        machine: launchpadSubscriptionMachine,
        table: launchpadSubscriptions,
        id: s.id,
        from: "reviewing",
        to: passed.isZero() ? "sold_out" : "passed",
        by: "system",
        set: {
          passedQuantity: passed.toFixed(),
          fee: fee.toFixed(),
          refunded: refund.toFixed(),
          unlockAt: passed.isZero() ? null : unlockAt,
          unlockedAt: passed.isZero() || o.lockDays > 0 ? null : now,
          updatedAt: now,
        },
      });
      if (!passed.isZero() && o.lockDays === 0) {
        await releaseFunds(tx, {
          userId: s.userId,
          book: "real",
          wallet: "exchange",
          currency: o.coin,
          amount: passed.toFixed(),
          idempotencyKey: `launchpad:sub:${s.id}:unlock`,
          kind: "launchpad.unlock",
          reference: { type: "launchpad_subscription", id: s.id },
        });
      }
    }
    await transition(tx, {
      machine: launchpadOfferingMachine,
      table: launchpadOfferings,
      id: o.id,
      from: "open",
      to: "allocated",
      by: "system",
    });
    await recordAudit(tx, {
      actor,
      action: "launchpad.allocate",
      subject: String(o.id),
      details: { requested: requested.toFixed(), allocated: allocated.toFixed(), subscriptions: subs.length },
    });
    return { subscriptions: subs.length, requested: requested.toFixed(), allocated: allocated.toFixed() };
  });
}

/** The issuance failed: every subscription is refunded in full. */
export async function failIssuance(
  db: Db,
  offeringId: number,
  reason: string,
  actor: string,
  now = new Date(),
) {
  return db.transaction(async (tx) => {
    const o = await lockOffering(tx, offeringId);
    if (
      !(await transition(tx, {
        machine: launchpadOfferingMachine,
        table: launchpadOfferings,
        id: o.id,
        from: "open",
        to: "issuance_failed",
        by: "operator",
        set: { failReason: reason },
      }))
    ) {
      throw new AppError("ALREADY_REVIEWED");
    }
    const subs = await reviewing(tx, o.id);
    for (const s of subs) {
      await transition(tx, {
        machine: launchpadSubscriptionMachine,
        table: launchpadSubscriptions,
        id: s.id,
        from: "reviewing",
        to: "issuance_failed",
        by: "operator",
        set: { failReason: reason, updatedAt: now },
      });
      await releaseFunds(tx, {
        userId: s.userId,
        book: "real",
        wallet: "exchange",
        currency: o.payCurrency,
        amount: s.frozen,
        idempotencyKey: `launchpad:sub:${s.id}:refund`,
        kind: "launchpad.refund",
        reference: { type: "launchpad_subscription", id: s.id },
      });
      await transition(tx, {
        machine: launchpadSubscriptionMachine,
        table: launchpadSubscriptions,
        id: s.id,
        from: "issuance_failed",
        to: "refunded",
        by: "operator",
        set: { refunded: s.frozen, updatedAt: now },
      });
    }
    await recordAudit(tx, {
      actor,
      action: "launchpad.issuance_failed",
      subject: String(o.id),
      details: { reason },
    });
    return { refunded: subs.length };
  });
}

/** Releases allocated coins whose lock-up has ended (the unlock job); each subscription once. */
export async function releaseUnlocked(db: Db, now = new Date()) {
  const due = await db
    .select({ s: launchpadSubscriptions, coin: launchpadOfferings.coin })
    .from(launchpadSubscriptions)
    .innerJoin(launchpadOfferings, eq(launchpadOfferings.id, launchpadSubscriptions.offeringId))
    .where(
      and(
        eq(launchpadSubscriptions.status, "passed"),
        isNull(launchpadSubscriptions.unlockedAt),
        lte(launchpadSubscriptions.unlockAt, now),
      ),
    )
    .orderBy(asc(launchpadSubscriptions.id));
  let released = 0;
  for (const { s, coin } of due) {
    await db.transaction(async (tx) => {
      const claimed = await tx
        .update(launchpadSubscriptions)
        .set({ unlockedAt: now, updatedAt: now })
        .where(and(eq(launchpadSubscriptions.id, s.id), isNull(launchpadSubscriptions.unlockedAt)))
        .returning({ id: launchpadSubscriptions.id });
      if (claimed.length === 0) {
        return;
      }
      const { applied } = await releaseFunds(tx, {
        userId: s.userId,
        book: "real",
        wallet: "exchange",
        currency: coin,
        amount: fixed(s.passedQuantity),
        idempotencyKey: `launchpad:sub:${s.id}:unlock`,
        kind: "launchpad.unlock",
        reference: { type: "launchpad_subscription", id: s.id },
      });
      released += applied ? 1 : 0;
    });
  }
  return { released };
}

/** The subscriptions of one offering for the back office, in the order they came. */
export async function listOfferingSubscriptions(
  db: DbOrTx,
  offeringId: number,
  page: number,
  pageSize: number,
) {
  const rows = await db
    .select({ s: launchpadSubscriptions, o: launchpadOfferings })
    .from(launchpadSubscriptions)
    .innerJoin(launchpadOfferings, eq(launchpadOfferings.id, launchpadSubscriptions.offeringId))
    .where(eq(launchpadSubscriptions.offeringId, offeringId))
    .orderBy(asc(launchpadSubscriptions.id))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  return rows.map((r) => ({ ...subscriptionView(r.s, r.o), userId: r.s.userId }));
}

/**
 * An operator rejects one subscription under review (SPEC section 4 "failed", with the reason the
 * record shows): its frozen amount is released in full and it takes no part in the allocation. The
 * offering is locked first, as the allocation does, so the two never cross.
 */
export async function rejectSubscription(
  db: Db,
  params: { subscriptionId: number; reason: string; actor: string },
  now = new Date(),
) {
  return db.transaction(async (tx) => {
    const [found] = await tx
      .select({ offeringId: launchpadSubscriptions.offeringId })
      .from(launchpadSubscriptions)
      .where(eq(launchpadSubscriptions.id, params.subscriptionId));
    if (!found) {
      throw new AppError("LAUNCHPAD_NOT_FOUND", {}, "id");
    }
    const o = await lockOffering(tx, found.offeringId);
    const [s] = await tx
      .select()
      .from(launchpadSubscriptions)
      .where(eq(launchpadSubscriptions.id, params.subscriptionId))
      .for("update");
    if (
      !s ||
      !(await transition(tx, {
        machine: launchpadSubscriptionMachine,
        table: launchpadSubscriptions,
        id: s.id,
        from: "reviewing",
        to: "failed",
        by: "operator",
        set: { rejectReason: params.reason, refunded: s.frozen, updatedAt: now },
      }))
    ) {
      throw new AppError("ALREADY_REVIEWED");
    }
    await releaseFunds(tx, {
      userId: s.userId,
      book: "real",
      wallet: "exchange",
      currency: o.payCurrency,
      amount: s.frozen,
      idempotencyKey: `launchpad:sub:${s.id}:reject`,
      kind: "launchpad.reject",
      reference: { type: "launchpad_subscription", id: s.id },
    });
    await recordAudit(tx, {
      actor: params.actor,
      action: "launchpad.subscription.reject",
      subject: String(s.id),
      details: { reason: params.reason, refunded: fixed(s.frozen) },
    });
    return subscriptionView({ ...s, status: "failed", rejectReason: params.reason, refunded: s.frozen }, o);
  });
}
