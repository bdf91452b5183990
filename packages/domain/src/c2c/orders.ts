import { C2C_FIAT_DECIMALS, c2cQuote } from "@northstar/shared/c2c";
import type {
  TC2cCreateOrderRequest,
  TC2cQuoteRequest,
  TC2cStockMove,
  TC2cSubmitProofRequest,
} from "@northstar/shared/contracts/c2c";
import { MoneyDecimal } from "@northstar/shared/money";
import { C2C_CLOCK_STATUSES, type C2cOrderStatus, c2cOrderMachine } from "@northstar/shared/state-machines";
import { and, asc, eq, gte, inArray, lte, sql } from "drizzle-orm";
import { recordAudit } from "../audit/index.ts";
import { assertAmountDecimals, currencyDecimals } from "../currencies/index.ts";
import type { Db, DbOrTx, Tx } from "../db/client.ts";
import { AppError } from "../errors.ts";
import type { OnceRecorder } from "../idempotency/index.ts";
import type { User } from "../identity/index.ts";
import { assertGate } from "../kyc/index.ts";
import { postEntry } from "../ledger/index.ts";
import { addMessage } from "../messages/index.ts";
import { getPolicy } from "../policy/index.ts";
import { transition } from "../state/index.ts";
import { uploadOwner } from "../uploads/index.ts";
import { c2cMerchants, c2cOrders } from "./c2c.table.ts";
import type { C2cExpiryScheduler } from "./expiry-queue.ts";
import { escrowAccount, type Merchant, moveMerchantStock, reservedAccount } from "./merchants.ts";
import { type Order, orderAdminView, orderView } from "./order-view.ts";

export interface C2cDeps {
  db: Db;
  /** Schedules each order's expiry job; absent in tests that drive expiry by hand. */
  scheduler?: C2cExpiryScheduler;
  /** The clock; tests pass a test clock. */
  now?: () => Date;
}

const MINUTE = 60_000;
const deadline = async (db: DbOrTx, from: Date) =>
  new Date(from.getTime() + (await getPolicy(db, "c2c.orderValidityMinutes")) * MINUTE);

/** The merchant a quote or order uses: the one chosen, or the cheapest active one whose range fits. */
async function pickMerchant(db: DbOrTx, input: TC2cQuoteRequest, coinDecimals: number) {
  const fits = (m: Merchant) => {
    const quote = c2cQuote(input.mode, input.amount, m.price, coinDecimals);
    return (
      quote !== null &&
      new MoneyDecimal(quote.fiatAmount).greaterThanOrEqualTo(m.minFiat) &&
      new MoneyDecimal(quote.fiatAmount).lessThanOrEqualTo(m.maxFiat)
    );
  };
  if (input.merchant_id !== undefined) {
    const [m] = await db.select().from(c2cMerchants).where(eq(c2cMerchants.id, input.merchant_id));
    if (m?.status !== "active" || m.coin !== input.coin) {
      throw new AppError("C2C_MERCHANT_NOT_FOUND", {}, "merchant_id");
    }
    return m;
  }
  const candidates = await db
    .select()
    .from(c2cMerchants)
    .where(and(eq(c2cMerchants.status, "active"), eq(c2cMerchants.coin, input.coin)))
    .orderBy(asc(c2cMerchants.price), asc(c2cMerchants.id));
  const fitting = candidates.filter(fits);
  // The cheapest merchant that can fill it now; else the cheapest that will once funded.
  const best =
    fitting.find((m) => {
      const q = c2cQuote(input.mode, input.amount, m.price, coinDecimals);
      return q !== null && new MoneyDecimal(m.stockAvailable).greaterThanOrEqualTo(q.coinAmount);
    }) ?? fitting[0];
  if (!best) {
    throw new AppError("C2C_NO_MERCHANT", {}, "amount");
  }
  return best;
}

/** The quote the user confirms: merchant, locked price, fiat to wire, coins to receive, the deadline. */
export async function quoteC2cOrder(db: DbOrTx, input: TC2cQuoteRequest) {
  // The typed amount is fiat (to the cent) or coins (to the coin's decimals); finer is refused.
  const coinDecimals = await currencyDecimals(db, input.coin, "coin");
  assertAmountDecimals(input.amount, input.mode === "fiat" ? C2C_FIAT_DECIMALS : coinDecimals, "amount");
  const m = await pickMerchant(db, input, coinDecimals);
  const quote = c2cQuote(input.mode, input.amount, m.price, coinDecimals);
  if (!quote) {
    throw new AppError("AMOUNT_INVALID", {}, "amount");
  }
  if (
    new MoneyDecimal(quote.fiatAmount).lessThan(m.minFiat) ||
    new MoneyDecimal(quote.fiatAmount).greaterThan(m.maxFiat)
  ) {
    const fmt = (v: string) => new MoneyDecimal(v).toFixed();
    throw new AppError(
      "C2C_AMOUNT_RANGE",
      { min: fmt(m.minFiat), max: fmt(m.maxFiat), fiat: m.fiat },
      "amount",
    );
  }
  return {
    merchantId: m.id,
    merchantName: m.name,
    coin: m.coin,
    fiat: m.fiat,
    price: new MoneyDecimal(m.price).toFixed(),
    fiatAmount: quote.fiatAmount,
    coinAmount: quote.coinAmount,
    inStock: new MoneyDecimal(m.stockAvailable).greaterThanOrEqualTo(quote.coinAmount),
    validityMinutes: await getPolicy(db, "c2c.orderValidityMinutes"),
  };
}

/**
 * Reserves the order's stock: the merchant's free stock drops by the quantity only if that much is
 * there and the merchant sells the order's coin (a conditional update on the merchant row, so two
 * orders racing for the last stock reserve it once, and an order is never filled from stock of
 * another coin), the order moves unmatched → matched with a fresh deadline, and the ledger moves
 * the coins from escrow to reserved, all in the caller's transaction. Null when the stock is short.
 */
async function reserveStock(tx: Tx, o: Order, now: Date, by: "system" | "operator"): Promise<Date | null> {
  const taken = await tx
    .update(c2cMerchants)
    .set({
      stockAvailable: sql`${c2cMerchants.stockAvailable} - ${o.coinAmount}`,
      stockReserved: sql`${c2cMerchants.stockReserved} + ${o.coinAmount}`,
    })
    .where(
      and(
        eq(c2cMerchants.id, o.merchantId),
        eq(c2cMerchants.coin, o.coin),
        eq(c2cMerchants.status, "active"),
        gte(c2cMerchants.stockAvailable, o.coinAmount),
      ),
    )
    .returning({ id: c2cMerchants.id });
  if (taken.length === 0) {
    return null;
  }
  const expiresAt = await deadline(tx, now);
  const moved = await transition(tx, {
    machine: c2cOrderMachine,
    table: c2cOrders,
    id: o.id,
    from: "unmatched",
    to: "matched",
    by,
    set: { matchedAt: now, expiresAt, updatedAt: now },
  });
  if (!moved) {
    // Someone else matched or ended it first: undo the stock taken in this transaction.
    throw new AppError("C2C_ORDER_STATE");
  }
  await tellBuyer(tx, o, "matched", { expiresAt: utcMinute(expiresAt) });
  const merchant = { id: o.merchantId, coin: o.coin };
  await postEntry(tx, {
    idempotencyKey: `c2c:order:${o.id}:reserve`,
    kind: "c2c.reserve",
    reference: { type: "c2c_order", id: o.id },
    postings: [
      { account: escrowAccount(merchant), amount: `-${new MoneyDecimal(o.coinAmount).toFixed()}` },
      { account: reservedAccount(merchant), amount: new MoneyDecimal(o.coinAmount).toFixed() },
    ],
  });
  return expiresAt;
}

/**
 * Tells the buyer their order moved, in the transaction that moved it (a match rolled back with its
 * savepoint tells nothing). The event key makes a second delivery of the same move add nothing.
 */
async function tellBuyer(
  tx: DbOrTx,
  o: Order,
  status: "matched" | "paid" | "completed" | "rejected" | "expired",
  extra: Record<string, string> = {},
) {
  await addMessage(tx, {
    userId: o.userId,
    kind: `c2c.${status}`,
    eventKey: `c2c:order:${o.id}:${status}`,
    params: {
      orderId: String(o.id),
      coinAmount: new MoneyDecimal(o.coinAmount).toFixed(),
      coin: o.coin,
      fiatAmount: new MoneyDecimal(o.fiatAmount).toFixed(),
      fiat: o.fiat,
      ...extra,
    },
  });
}

/** A deadline as the message shows it: minutes, UTC. */
const utcMinute = (at: Date) => at.toISOString().slice(0, 16).replace("T", " ");

/** Tries to reserve stock in a savepoint: a short stock leaves the order unmatched, nothing else changed. */
async function tryReserve(tx: Tx, o: Order, now: Date, by: "system" | "operator") {
  try {
    return await tx.transaction((sp) => reserveStock(sp, o, now, by));
  } catch (error) {
    if (error instanceof AppError && error.code === "C2C_ORDER_STATE") {
      return null;
    }
    throw error;
  }
}

async function loadView(db: DbOrTx, orderId: number) {
  const [row] = await db
    .select({ o: c2cOrders, m: c2cMerchants })
    .from(c2cOrders)
    .innerJoin(c2cMerchants, eq(c2cMerchants.id, c2cOrders.merchantId))
    .where(eq(c2cOrders.id, orderId));
  if (!row) {
    throw new AppError("C2C_ORDER_NOT_FOUND", {}, "order_id");
  }
  return row;
}

/**
 * A user with primary KYC creates an order: merchant and price locked, the amounts fixed by the
 * quote, then matched at once when the merchant has the stock (otherwise it waits unmatched). The
 * deadline's job is scheduled after the commit.
 */
export async function createC2cOrder(
  deps: C2cDeps,
  user: User,
  input: TC2cCreateOrderRequest,
  once?: OnceRecorder,
) {
  const { db } = deps;
  const now = deps.now?.() ?? new Date();
  if (user.kind !== "real") {
    throw new AppError("REAL_ACCOUNT_REQUIRED");
  }
  await assertGate(db, user.id, "c2c");
  const created = await db.transaction(async (tx) => {
    // Counted under a per-user lock, so parallel creates cannot pass the open-order limit together.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`c2c:user:${user.id}`}, 0))`);
    const maxOpen = await getPolicy(tx, "c2c.maxOpenOrders");
    const [open] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(c2cOrders)
      .where(and(eq(c2cOrders.userId, user.id), inArray(c2cOrders.status, ["unmatched", "matched", "paid"])));
    if ((open?.n ?? 0) >= maxOpen) {
      throw new AppError("C2C_TOO_MANY_OPEN", { count: maxOpen });
    }
    const quote = await quoteC2cOrder(tx, input);
    if (input.price !== undefined && !new MoneyDecimal(input.price).equals(quote.price)) {
      throw new AppError("C2C_PRICE_CHANGED", { price: quote.price, fiat: quote.fiat }, "price");
    }
    // The merchant's coin, read again under the row lock the reservation takes anyway (held to the
    // commit): a coin change in the back office either waits for this order (and is then refused)
    // or is seen here. (A share lock here would deadlock two orders upgrading it to reserve.)
    const [locked] = await tx
      .select({ coin: c2cMerchants.coin })
      .from(c2cMerchants)
      .where(eq(c2cMerchants.id, quote.merchantId))
      .for("no key update");
    if (locked?.coin !== quote.coin) {
      throw new AppError("C2C_MERCHANT_NOT_FOUND", {}, "merchant_id");
    }
    const [order] = await tx
      .insert(c2cOrders)
      .values({
        userId: user.id,
        merchantId: quote.merchantId,
        coin: quote.coin,
        fiat: quote.fiat,
        price: quote.price,
        mode: input.mode,
        fiatAmount: quote.fiatAmount,
        coinAmount: quote.coinAmount,
        expiresAt: await deadline(tx, now),
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    if (!order) {
      throw new AppError("REQUEST_ERROR");
    }
    await tryReserve(tx, order, now, "system");
    const row = await loadView(tx, order.id);
    const answer = orderView(row.o, row.m);
    await once?.record(tx, answer);
    return answer;
  });
  await deps.scheduler?.schedule(created.id, created.expiresAt, now);
  return created;
}

/** Matches one waiting order (an operator's action, or the system when stock arrives). */
export async function matchC2cOrder(deps: C2cDeps, orderId: number, actor: string | null) {
  const now = deps.now?.() ?? new Date();
  const row = await deps.db.transaction(async (tx) => {
    const [o] = await tx.select().from(c2cOrders).where(eq(c2cOrders.id, orderId)).for("update");
    if (!o) {
      throw new AppError("C2C_ORDER_NOT_FOUND", {}, "order_id");
    }
    if (o.status !== "unmatched") {
      throw new AppError("C2C_ORDER_STATE");
    }
    if (o.expiresAt <= now) {
      throw new AppError("C2C_ORDER_EXPIRED");
    }
    const expiresAt = await tryReserve(tx, o, now, actor ? "operator" : "system");
    if (!expiresAt) {
      throw new AppError("C2C_STOCK_INSUFFICIENT");
    }
    if (actor) {
      await recordAudit(tx, { actor, action: "c2c.order.match", subject: String(o.id) });
    }
    return loadView(tx, o.id);
  });
  await deps.scheduler?.schedule(row.o.id, row.o.expiresAt, now);
  return orderAdminView(row.o, row.m);
}

/**
 * Funds a merchant's escrow, then matches its waiting orders of its coin oldest first while the
 * stock lasts (an order too large for what is left keeps waiting; smaller ones behind it may still
 * match).
 */
export async function fundMerchant(deps: C2cDeps, input: TC2cStockMove, actor: string) {
  const merchant = await moveMerchantStock(deps.db, "fund", input, actor);
  const now = deps.now?.() ?? new Date();
  const waiting = await deps.db
    .select({ id: c2cOrders.id })
    .from(c2cOrders)
    .where(
      and(
        eq(c2cOrders.merchantId, input.merchant_id),
        eq(c2cOrders.coin, merchant.coin),
        eq(c2cOrders.status, "unmatched"),
        sql`${c2cOrders.expiresAt} > ${now}`,
      ),
    )
    .orderBy(asc(c2cOrders.createdAt), asc(c2cOrders.id));
  let matched = 0;
  for (const { id } of waiting) {
    try {
      await matchC2cOrder(deps, id, null);
      matched += 1;
    } catch (error) {
      if (!(error instanceof AppError)) {
        throw error;
      }
    }
  }
  return { merchant, matched };
}

/**
 * The user submits the payment proof of a matched order before its deadline: the order is `paid`
 * and its clock stops. Sent twice or 50 times at once, one applies; the others find it paid.
 */
export async function submitC2cProof(deps: C2cDeps, user: User, input: TC2cSubmitProofRequest) {
  const now = deps.now?.() ?? new Date();
  if ((await uploadOwner(deps.db, input.proof_upload_id)) !== user.id) {
    throw new AppError("NOT_FOUND", {}, "proof_upload_id");
  }
  return deps.db.transaction(async (tx) => {
    const [o] = await tx
      .select()
      .from(c2cOrders)
      .where(and(eq(c2cOrders.id, input.order_id), eq(c2cOrders.userId, user.id)))
      .for("update");
    if (!o) {
      throw new AppError("C2C_ORDER_NOT_FOUND", {}, "order_id");
    }
    if (o.status === "paid" && o.proofUploadId === input.proof_upload_id) {
      const row = await loadView(tx, o.id);
      return orderView(row.o, row.m);
    }
    if (o.status === "expired" || (C2C_CLOCK_STATUSES.includes(o.status) && o.expiresAt <= now)) {
      throw new AppError("C2C_ORDER_EXPIRED");
    }
    if (o.status !== "matched") {
      throw new AppError("C2C_ORDER_STATE");
    }
    await transition(tx, {
      machine: c2cOrderMachine,
      table: c2cOrders,
      id: o.id,
      from: "matched",
      to: "paid",
      by: "user",
      set: {
        proofUploadId: input.proof_upload_id,
        proofNote: input.note || null,
        paidAt: now,
        updatedAt: now,
      },
    });
    await tellBuyer(tx, o, "paid");
    const row = await loadView(tx, o.id);
    return orderView(row.o, row.m);
  });
}

/** Moves the reserved coins back to the merchant's free stock (an expiry or a rejection). */
async function releaseReserved(tx: Tx, o: Order) {
  const merchant = { id: o.merchantId, coin: o.coin };
  const amount = new MoneyDecimal(o.coinAmount).toFixed();
  await postEntry(tx, {
    idempotencyKey: `c2c:order:${o.id}:release`,
    kind: "c2c.release",
    reference: { type: "c2c_order", id: o.id },
    postings: [
      { account: reservedAccount(merchant), amount: `-${amount}` },
      { account: escrowAccount(merchant), amount },
    ],
  });
  await tx
    .update(c2cMerchants)
    .set({
      stockAvailable: sql`${c2cMerchants.stockAvailable} + ${amount}`,
      stockReserved: sql`${c2cMerchants.stockReserved} - ${amount}`,
    })
    .where(eq(c2cMerchants.id, o.merchantId));
}

async function lockOrder(tx: Tx, orderId: number) {
  const [o] = await tx.select().from(c2cOrders).where(eq(c2cOrders.id, orderId)).for("update");
  if (!o) {
    throw new AppError("C2C_ORDER_NOT_FOUND", {}, "order_id");
  }
  return o;
}

/** An operator confirms the wire arrived: the reserved coins go to the user's exchange wallet. */
export async function confirmC2cOrder(deps: C2cDeps, orderId: number, actor: string) {
  const now = deps.now?.() ?? new Date();
  return deps.db.transaction(async (tx) => {
    const o = await lockOrder(tx, orderId);
    if (o.status !== "paid") {
      throw new AppError("C2C_ORDER_STATE");
    }
    await transition(tx, {
      machine: c2cOrderMachine,
      table: c2cOrders,
      id: o.id,
      from: "paid",
      to: "completed",
      by: "operator",
      set: { completedAt: now, decidedBy: actor, updatedAt: now },
    });
    await tellBuyer(tx, o, "completed");
    const amount = new MoneyDecimal(o.coinAmount).toFixed();
    await postEntry(tx, {
      idempotencyKey: `c2c:order:${o.id}:complete`,
      kind: "c2c.complete",
      reference: { type: "c2c_order", id: o.id },
      postings: [
        { account: reservedAccount({ id: o.merchantId, coin: o.coin }), amount: `-${amount}` },
        { account: { userId: o.userId, book: "real", wallet: "exchange", currency: o.coin }, amount },
      ],
    });
    await tx
      .update(c2cMerchants)
      .set({ stockReserved: sql`${c2cMerchants.stockReserved} - ${amount}` })
      .where(eq(c2cMerchants.id, o.merchantId));
    await recordAudit(tx, { actor, action: "c2c.order.confirm", subject: String(o.id), details: { amount } });
    const row = await loadView(tx, o.id);
    return orderAdminView(row.o, row.m);
  });
}

/** An operator rejects an order not yet completed, with a reason the user sees; reserved stock returns. */
export async function rejectC2cOrder(deps: C2cDeps, orderId: number, reason: string, actor: string) {
  const now = deps.now?.() ?? new Date();
  return deps.db.transaction(async (tx) => {
    const o = await lockOrder(tx, orderId);
    if (!["unmatched", "matched", "paid"].includes(o.status)) {
      throw new AppError("C2C_ORDER_STATE");
    }
    await transition(tx, {
      machine: c2cOrderMachine,
      table: c2cOrders,
      id: o.id,
      from: o.status,
      to: "rejected",
      by: "operator",
      set: { rejectedAt: now, rejectReason: reason, decidedBy: actor, updatedAt: now },
    });
    await tellBuyer(tx, o, "rejected", { reason });
    if (o.status !== "unmatched") {
      await releaseReserved(tx, o);
    }
    await recordAudit(tx, { actor, action: "c2c.order.reject", subject: String(o.id), details: { reason } });
    const row = await loadView(tx, o.id);
    return orderAdminView(row.o, row.m);
  });
}

/**
 * The buyer cancels an order they have not paid (no proof sent): `cancelled`, and a matched order's
 * reserved stock goes back to the merchant, once (the row lock and the compare-and-set make a second
 * cancel a refusal, the entry's idempotency key a replay nothing). Another user's order is not found.
 */
export async function cancelC2cOrder(deps: C2cDeps, user: User, orderId: number) {
  const now = deps.now?.() ?? new Date();
  return deps.db.transaction(async (tx) => {
    const [o] = await tx
      .select()
      .from(c2cOrders)
      .where(and(eq(c2cOrders.id, orderId), eq(c2cOrders.userId, user.id)))
      .for("update");
    if (!o) {
      throw new AppError("C2C_ORDER_NOT_FOUND", {}, "order_id");
    }
    if (o.status !== "unmatched" && o.status !== "matched") {
      throw new AppError("C2C_ORDER_STATE");
    }
    await transition(tx, {
      machine: c2cOrderMachine,
      table: c2cOrders,
      id: o.id,
      from: o.status,
      to: "cancelled",
      by: "user",
      set: { updatedAt: now },
    });
    if (o.status === "matched") {
      await releaseReserved(tx, o);
    }
    const row = await loadView(tx, o.id);
    return orderView(row.o, row.m);
  });
}

export type ExpireResult =
  | { state: "expired" }
  | { state: "not_due"; expiresAt: Date }
  | { state: "stopped"; status: C2cOrderStatus }
  | { state: "missing" };

/**
 * Expires one order whose deadline has come (`now` at or past `expiresAt`) and which has no proof:
 * `expired`, and a matched order's reserved stock goes back to the merchant, once (the row lock,
 * the compare-and-set and the entry's idempotency key each make a second delivery change nothing).
 */
export async function expireC2cOrder(db: Db, orderId: number, now: Date): Promise<ExpireResult> {
  return db.transaction(async (tx) => {
    const [o] = await tx.select().from(c2cOrders).where(eq(c2cOrders.id, orderId)).for("update");
    if (!o) {
      return { state: "missing" } as const;
    }
    if (!C2C_CLOCK_STATUSES.includes(o.status)) {
      return { state: "stopped", status: o.status } as const;
    }
    if (o.expiresAt > now) {
      return { state: "not_due", expiresAt: o.expiresAt } as const;
    }
    await transition(tx, {
      machine: c2cOrderMachine,
      table: c2cOrders,
      id: o.id,
      from: o.status,
      to: "expired",
      by: "system",
      set: { expiredAt: now, updatedAt: now },
    });
    await tellBuyer(tx, o, "expired");
    if (o.status === "matched") {
      await releaseReserved(tx, o);
    }
    return { state: "expired" } as const;
  });
}

/** The sweep: expires every order past its deadline (after downtime, or a lost job). Returns how many. */
export async function expireDueC2cOrders(db: Db, now: Date): Promise<number> {
  const due = await db
    .select({ id: c2cOrders.id })
    .from(c2cOrders)
    .where(and(inArray(c2cOrders.status, [...C2C_CLOCK_STATUSES]), lte(c2cOrders.expiresAt, now)))
    .orderBy(asc(c2cOrders.expiresAt), asc(c2cOrders.id))
    .limit(500);
  let expired = 0;
  for (const { id } of due) {
    if ((await expireC2cOrder(db, id, now)).state === "expired") {
      expired += 1;
    }
  }
  return expired;
}
