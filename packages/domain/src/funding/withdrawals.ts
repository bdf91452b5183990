import type { TApplyWithdrawalRequest } from "@northstar/shared/contracts/funding";
import { MoneyDecimal } from "@northstar/shared/money";
import { withdrawalMachine } from "@northstar/shared/state-machines";
import { withdrawalQuote } from "@northstar/shared/withdrawal-fee";
import { isWithinWindow, zonedClock } from "@northstar/shared/zoned-clock";
import { and, count, desc, eq, gte, inArray, isNull, ne, sql } from "drizzle-orm";
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

type PayoutRoute = (w: { currency: string; chain: string | null }) => boolean;
let paidByHotWallet: PayoutRoute = () => false;

/**
 * The chain module tells which crypto withdrawals its hot wallet pays (a chain with a node and a
 * currency it holds there); until it registers, every approval is paid outside the platform.
 */
export function registerHotWalletRoute(route: PayoutRoute) {
  paidByHotWallet = route;
}

type WithdrawalRow = typeof withdrawals.$inferSelect;

/**
 * An operator approves. A withdrawal paid outside the platform (bank wire, a chain without a node)
 * is done: the held amount leaves (received to the clearing account, fee to fees). One the hot
 * wallet pays is `queued` for the signer and stays held until the chain confirms it.
 */
export async function approveWithdrawal(db: Db, params: Review) {
  return db.transaction(async (tx) => {
    const w = await lockWithdrawal(tx, params.withdrawalId);
    const onChain = w.method === "crypto" && w.status === "pending" && paidByHotWallet(w);
    if (
      !(await transition(tx, {
        machine: withdrawalMachine,
        table: withdrawals,
        id: w.id,
        from: "pending",
        to: onChain ? "queued" : "success",
        by: "operator",
        set: { reviewedBy: params.operatorId, reviewedAt: new Date() },
      }))
    ) {
      throw new AppError("ALREADY_REVIEWED");
    }
    if (!onChain) {
      await postPayout(tx, w);
    }
    await recordAudit(tx, {
      actor: params.actor,
      action: "withdrawal.approve",
      subject: String(w.id),
      details: { amount: w.amount, fee: w.fee, ...(onChain ? { route: "hot_wallet" } : {}) },
    });
    await addMessage(tx, {
      userId: w.userId,
      kind: "withdrawal.approved",
      params: { amount: w.amount, currency: w.currency },
      eventKey: `withdrawal:${w.id}:approved`,
    });
    return { status: onChain ? ("queued" as const) : ("success" as const) };
  });
}

/**
 * The held amount leaves: received to the method's clearing account, the fee to fees. Once per
 * withdrawal. A payout the hot wallet sent gives its coins back to the chain's custody account of
 * the hot wallet instead (`chain_custody:<chain>:hot`), so that account stays minus what the hot
 * wallet holds.
 */
async function postPayout(tx: DbOrTx, w: WithdrawalRow, custody?: HotWalletCustody) {
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
        system: custody ?? (`withdrawal_clearing:${w.method}` as const),
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
}

/**
 * An operator lets a withdrawal over the daily hot-wallet limit go: back to `queued`, marked so the
 * signer sends it without checking the limit again.
 */
export async function releaseWithdrawal(db: Db, params: Review) {
  return db.transaction(async (tx) => {
    const w = await lockWithdrawal(tx, params.withdrawalId);
    if (
      !(await transition(tx, {
        machine: withdrawalMachine,
        table: withdrawals,
        id: w.id,
        from: "awaiting_release",
        to: "queued",
        by: "operator",
        set: { releasedBy: params.operatorId },
      }))
    ) {
      throw new AppError("ALREADY_REVIEWED");
    }
    await recordAudit(tx, {
      actor: params.actor,
      action: "withdrawal.release",
      subject: String(w.id),
      details: { amount: w.amount, currency: w.currency },
    });
  });
}

/** The withdrawal row under a row lock, for the hot-wallet signer's transaction. */
export async function lockWithdrawalForPayout(tx: DbOrTx, id: number): Promise<WithdrawalRow> {
  return lockWithdrawal(tx, id);
}

/** Withdrawals the hot wallet still has work on (to sign, to send, to confirm), oldest first. */
export async function listHotWalletWork(db: DbOrTx, limit = 500) {
  return db
    .select({ id: withdrawals.id, status: withdrawals.status })
    .from(withdrawals)
    .where(inArray(withdrawals.status, ["queued", "broadcast", "confirming"]))
    .orderBy(withdrawals.id)
    .limit(limit);
}

type ChainProgress = { txHash?: string; confirmations?: number; confirmationsRequired?: number };
/** The chain custody account of a hot wallet, which a hot-wallet payout gives its coins back to. */
export type HotWalletCustody = `chain_custody:${string}:hot`;

/**
 * The signer's progress on a withdrawal: a state change through the machine (compare-and-set), or,
 * with `from` equal to `to`, only the shown hash and confirmations. Reaching success posts the payout.
 */
export async function advanceHotWalletWithdrawal(
  tx: DbOrTx,
  params: {
    id: number;
    from: "queued" | "broadcast" | "confirming";
    to: "awaiting_release" | "broadcast" | "confirming" | "success";
    /** Only the shown hash and confirmations change when `from` equals `to`. */
    progress?: ChainProgress;
    /** Where the coins left from, for the posting at success. */
    custody: HotWalletCustody;
  },
): Promise<boolean> {
  const w = await lockWithdrawal(tx, params.id);
  if (w.status !== params.from) {
    return false;
  }
  if (params.from === params.to) {
    await tx
      .update(withdrawals)
      .set(params.progress ?? {})
      .where(and(eq(withdrawals.id, w.id), eq(withdrawals.status, params.from)));
    return true;
  }
  const moved = await transition(tx, {
    machine: withdrawalMachine,
    table: withdrawals,
    id: w.id,
    from: params.from,
    to: params.to,
    by: "system",
    set: params.progress ?? {},
  });
  if (moved && params.to === "success") {
    await postPayout(tx, w, params.custody);
  }
  return moved;
}

/**
 * The chain reverted the hot wallet's transaction: the withdrawal fails and the held amount returns
 * to the user's available balance, once (compare-and-set on the state, and the release's key).
 */
export async function failHotWalletWithdrawal(
  tx: DbOrTx,
  params: { id: number; from: "broadcast" | "confirming"; progress?: ChainProgress },
): Promise<boolean> {
  const w = await lockWithdrawal(tx, params.id);
  const moved = await transition(tx, {
    machine: withdrawalMachine,
    table: withdrawals,
    id: w.id,
    from: params.from,
    to: "failed",
    by: "system",
    set: params.progress ?? {},
  });
  if (!moved) {
    return false;
  }
  await refundHeld(tx, w, "withdrawal.chain_failed");
  await addMessage(tx, {
    userId: w.userId,
    kind: "withdrawal.failed",
    params: { amount: w.amount, currency: w.currency },
    eventKey: `withdrawal:${w.id}:chain-failed`,
  });
  return true;
}

async function refundHeld(tx: DbOrTx, w: WithdrawalRow, kind: string) {
  await releaseFunds(tx, {
    userId: w.userId,
    book: "real",
    wallet: "exchange",
    currency: w.currency,
    amount: w.amount,
    idempotencyKey: `withdrawal:${w.id}:release`,
    kind,
    reference: { type: "withdrawal", id: w.id },
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
    // An operator may also reject one waiting over the daily hot-wallet limit: it is still held.
    const from = by === "operator" && w.status === "awaiting_release" ? "awaiting_release" : "pending";
    if (
      !(await transition(tx, {
        machine: withdrawalMachine,
        table: withdrawals,
        id: w.id,
        from,
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
