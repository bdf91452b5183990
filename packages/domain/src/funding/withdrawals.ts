import type { TApplyWithdrawalRequest } from "@northstar/shared/contracts/funding";
import { MoneyDecimal } from "@northstar/shared/money";
import { withdrawalMachine } from "@northstar/shared/state-machines";
import { withdrawalQuote } from "@northstar/shared/withdrawal-fee";
import { isWithinWindow, zonedClock } from "@northstar/shared/zoned-clock";
import { and, count, desc, eq, gte, isNull, ne, sql } from "drizzle-orm";
import { recordAudit } from "../audit/index.ts";
import { assertAmountDecimals, assertCurrencyAmount } from "../currencies/index.ts";
import type { Db, DbOrTx } from "../db/client.ts";
import { AppError } from "../errors.ts";
import type { OnceRecorder } from "../idempotency/index.ts";
import { isGoogleBound, type User, verifyGoogleCode, verifyTradePassword } from "../identity/index.ts";
import { holdFunds, postEntry, releaseFunds } from "../ledger/index.ts";
import { type PriceProvider, valueInUsdt } from "../markets/index.ts";
import { addMessage } from "../messages/index.ts";
import { getPolicy } from "../policy/index.ts";
import { transition } from "../state/index.ts";
import { assertRealAccount } from "./deposits.ts";
import { bankCards, withdrawalAddresses, withdrawals } from "./funding.table.ts";
import { getTurnoverProgress } from "./turnover.ts";

/** Applications since the start of the user's day; a cancelled one does not count. */
async function countToday(db: DbOrTx, userId: number, dayStart: Date): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(withdrawals)
    .where(
      and(
        eq(withdrawals.userId, userId),
        gte(withdrawals.createdAt, dayStart),
        ne(withdrawals.status, "cancelled"),
      ),
    );
  return row?.n ?? 0;
}

/** Everything the withdrawal form shows before the user tries: the same values the server checks. */
export async function getWithdrawalTerms(db: DbOrTx, user: User, now = new Date()) {
  const [perDay, minUsdt, maxUsdt, window, chains, feeRate, turnover, google] = await Promise.all([
    getPolicy(db, "funding.withdraw.perDay"),
    getPolicy(db, "funding.withdraw.minUsdt"),
    getPolicy(db, "funding.withdraw.maxUsdt"),
    getPolicy(db, "funding.withdraw.window"),
    getPolicy(db, "funding.withdraw.chains"),
    getPolicy(db, "funding.withdraw.feeRate"),
    getTurnoverProgress(db, user.id),
    isGoogleBound(db, user.id),
  ]);
  const clock = zonedClock(now, window.timeZone);
  const usedToday = await countToday(db, user.id, clock.dayStart);
  return {
    perDay,
    usedToday,
    minUsdt,
    maxUsdt,
    window,
    windowOpen: isWithinWindow(clock.hour, window),
    chains,
    feeRate,
    turnover,
    googleBound: google,
    tradePasswordSet: user.tradePasswordHash !== null,
  };
}

/**
 * Fee and amount received for an amount, at the policy fee rate. The fee is rounded up to the
 * decimals the currency is held to, so that what the user receives can actually be sent; an amount
 * finer than those decimals is refused, as it could not be sent either.
 */
export function withdrawalFee(amount: string, feeRate: string, decimals: number) {
  assertAmountDecimals(amount, decimals, "amount");
  const quote = withdrawalQuote(amount, feeRate, decimals);
  if (!quote) {
    throw new AppError("AMOUNT_INVALID", {}, "amount");
  }
  return quote;
}

/**
 * A user applies to withdraw. Every rule of SPEC section 9 is checked in the order a user can fix
 * them; then the withdrawal row is written and the full amount held in one transaction. A
 * per-user lock makes the daily count exact under concurrent requests.
 */
export async function applyWithdrawal(
  db: Db,
  prices: PriceProvider,
  user: User,
  input: TApplyWithdrawalRequest,
  now = new Date(),
  once?: OnceRecorder,
) {
  assertRealAccount(user);
  if (!user.tradePasswordHash) {
    throw new AppError("TRADE_PASSWORD_NOT_SET");
  }
  const decimals = await assertCurrencyAmount(db, input.currency, input.amount, "amount");
  const terms = await getWithdrawalTerms(db, user, now);
  // The policy's currency list binds every method: a currency it does not name leaves by no route.
  if (!(terms.chains[input.currency]?.length ?? 0)) {
    throw new AppError(
      "WITHDRAW_CURRENCY_NOT_ALLOWED",
      { currency: input.currency, currencies: Object.keys(terms.chains).sort().join(", ") || "—" },
      "currency",
    );
  }
  let chain: string | null = null;
  let address: string | null = null;
  let memo: string | null = null;
  if (input.method === "crypto") {
    const [saved] = await db
      .select()
      .from(withdrawalAddresses)
      .where(
        and(
          eq(withdrawalAddresses.id, input.address_id ?? 0),
          eq(withdrawalAddresses.userId, user.id),
          isNull(withdrawalAddresses.deletedAt),
        ),
      );
    if (!saved || saved.currency !== input.currency) {
      throw new AppError("NOT_FOUND", {}, "address_id");
    }
    const allowed = terms.chains[input.currency] ?? [];
    if (!allowed.includes(saved.chain)) {
      throw new AppError(
        "WITHDRAW_CHAIN_NOT_ALLOWED",
        { currency: input.currency, chains: allowed.join(", ") || "—" },
        "address_id",
      );
    }
    ({ chain, address, memo } = saved);
  } else {
    const [card] = await db
      .select({ id: bankCards.id })
      .from(bankCards)
      .where(
        and(
          eq(bankCards.id, input.bank_card_id ?? 0),
          eq(bankCards.userId, user.id),
          isNull(bankCards.deletedAt),
        ),
      );
    if (!card) {
      throw new AppError("NOT_FOUND", {}, "bank_card_id");
    }
  }
  const usdt = await valueInUsdt(prices, input.currency, input.amount);
  if (usdt === null) {
    throw new AppError("PRICE_UNAVAILABLE");
  }
  if (new MoneyDecimal(usdt).lessThan(terms.minUsdt)) {
    throw new AppError("WITHDRAW_BELOW_MINIMUM", {}, "amount");
  }
  if (new MoneyDecimal(usdt).greaterThan(terms.maxUsdt)) {
    throw new AppError("WITHDRAW_ABOVE_MAXIMUM", { max: terms.maxUsdt }, "amount");
  }
  if (!terms.windowOpen) {
    throw new AppError("WITHDRAW_OUTSIDE_WINDOW", { start: terms.window.start, end: terms.window.end });
  }
  if (!terms.turnover.met) {
    throw new AppError("WITHDRAW_TURNOVER_REQUIRED", {
      required: terms.turnover.required,
      done: terms.turnover.done,
      ratio: new MoneyDecimal(terms.turnover.ratio).times(100).toFixed(),
    });
  }
  await verifyTradePassword(db, user.id, input.trade_password);
  if (terms.googleBound) {
    if (!input.google_code) {
      throw new AppError("GOOGLE_CODE_REQUIRED", {}, "google_code");
    }
    await verifyGoogleCode(db, user.id, input.google_code);
  }
  const { fee, received } = withdrawalFee(input.amount, terms.feeRate, decimals);
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended('withdraw:' || ${user.id}::text, 0))`);
    const clock = zonedClock(now, terms.window.timeZone);
    if ((await countToday(tx, user.id, clock.dayStart)) >= terms.perDay) {
      throw new AppError("WITHDRAW_DAILY_LIMIT", { count: terms.perDay });
    }
    const [row] = await tx
      .insert(withdrawals)
      .values({
        userId: user.id,
        method: input.method,
        currency: input.currency,
        chain,
        address,
        memo,
        bankCardId: input.bank_card_id ?? null,
        amount: input.amount,
        fee,
        received,
      })
      .returning();
    if (!row) {
      throw new AppError("REQUEST_ERROR");
    }
    await holdFunds(tx, {
      userId: user.id,
      book: "real",
      wallet: "exchange",
      currency: input.currency,
      amount: input.amount,
      idempotencyKey: `withdrawal:${row.id}:hold`,
      kind: "withdrawal.hold",
      reference: { type: "withdrawal", id: row.id },
    });
    await once?.record(tx, row);
    return row;
  });
}

export async function listUserWithdrawals(db: DbOrTx, userId: number, page: number, pageSize: number) {
  return db
    .select()
    .from(withdrawals)
    .where(eq(withdrawals.userId, userId))
    .orderBy(desc(withdrawals.createdAt), desc(withdrawals.id))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
}

type Review = { withdrawalId: number; operatorId: number; actor: string };

/** An operator approves: the held amount leaves (received to the clearing account, fee to fees). */
export async function approveWithdrawal(db: Db, params: Review) {
  return db.transaction(async (tx) => {
    const w = await lockWithdrawal(tx, params.withdrawalId);
    if (
      !(await transition(tx, {
        machine: withdrawalMachine,
        table: withdrawals,
        id: w.id,
        from: "pending",
        to: "success",
        by: "operator",
        set: { reviewedBy: params.operatorId, reviewedAt: new Date() },
      }))
    ) {
      throw new AppError("ALREADY_REVIEWED");
    }
    const postings = [
      {
        account: {
          userId: w.userId,
          book: "real" as const,
          wallet: "exchange" as const,
          currency: w.currency,
          bucket: "held" as const,
        },
        amount: `-${w.amount}`,
      },
      {
        account: {
          system: `withdrawal_clearing:${w.method}` as const,
          book: "real" as const,
          currency: w.currency,
        },
        amount: w.received,
      },
    ];
    if (!new MoneyDecimal(w.fee).isZero()) {
      postings.push({
        account: { system: "fees", book: "real", currency: w.currency } as never,
        amount: w.fee,
      });
    }
    await postEntry(tx, {
      idempotencyKey: `withdrawal:${w.id}:approve`,
      kind: "withdrawal.approve",
      reference: { type: "withdrawal", id: w.id },
      postings,
    });
    await recordAudit(tx, {
      actor: params.actor,
      action: "withdrawal.approve",
      subject: String(w.id),
      details: { amount: w.amount, fee: w.fee },
    });
    await addMessage(tx, {
      userId: w.userId,
      kind: "withdrawal.approved",
      params: { amount: w.amount, currency: w.currency },
      eventKey: `withdrawal:${w.id}:approved`,
    });
  });
}

/** An operator rejects, or the user cancels while pending: the hold is released. */
export async function rejectWithdrawal(db: Db, params: Review & { reason: string }) {
  return closeWithRelease(
    db,
    params.withdrawalId,
    "failed",
    "operator",
    { reviewedBy: params.operatorId, reviewedAt: new Date(), rejectReason: params.reason },
    async (tx, w) => {
      await recordAudit(tx, {
        actor: params.actor,
        action: "withdrawal.reject",
        subject: String(params.withdrawalId),
        details: { reason: params.reason },
      });
      await addMessage(tx, {
        userId: w.userId,
        kind: "withdrawal.rejected",
        params: { amount: w.amount, currency: w.currency, reason: params.reason },
        eventKey: `withdrawal:${w.id}:rejected`,
      });
    },
  );
}

export async function cancelWithdrawal(db: Db, user: User, withdrawalId: number) {
  const [own] = await db
    .select({ id: withdrawals.id })
    .from(withdrawals)
    .where(and(eq(withdrawals.id, withdrawalId), eq(withdrawals.userId, user.id)));
  if (!own) {
    throw new AppError("NOT_FOUND");
  }
  return closeWithRelease(db, withdrawalId, "cancelled", "user", {}, async () => {});
}

async function closeWithRelease(
  db: Db,
  withdrawalId: number,
  to: "failed" | "cancelled",
  by: "operator" | "user",
  set: Record<string, unknown>,
  after: (tx: DbOrTx, w: { id: number; userId: number; amount: string; currency: string }) => Promise<void>,
) {
  return db.transaction(async (tx) => {
    const w = await lockWithdrawal(tx, withdrawalId);
    if (
      !(await transition(tx, {
        machine: withdrawalMachine,
        table: withdrawals,
        id: w.id,
        from: "pending",
        to,
        by,
        set,
      }))
    ) {
      throw new AppError("ALREADY_REVIEWED");
    }
    await releaseFunds(tx, {
      userId: w.userId,
      book: "real",
      wallet: "exchange",
      currency: w.currency,
      amount: w.amount,
      idempotencyKey: `withdrawal:${w.id}:release`,
      kind: `withdrawal.${to === "failed" ? "reject" : "cancel"}`,
      reference: { type: "withdrawal", id: w.id },
    });
    await after(tx, w);
  });
}

async function lockWithdrawal(tx: DbOrTx, id: number) {
  const [w] = await tx.select().from(withdrawals).where(eq(withdrawals.id, id)).for("update");
  if (!w) {
    throw new AppError("NOT_FOUND");
  }
  return w;
}
