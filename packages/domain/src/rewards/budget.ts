import { randomUUID } from "node:crypto";
import { MoneyDecimal } from "@northstar/shared/money";
import { and, asc, eq, sql } from "drizzle-orm";
import { recordAudit } from "../audit/index.ts";
import { findCurrency } from "../currencies/index.ts";
import type { Db, DbOrTx } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { ledgerAccounts, postEntry } from "../ledger/index.ts";

/**
 * The marketing budget's balance in `currency` (the `marketing_budget` system account of the real
 * book; 0 before it is first funded). With `lock`, its row stays locked to the end of the transaction.
 */
export async function budgetBalance(db: DbOrTx, currency: string, opts: { lock?: boolean } = {}) {
  const query = db
    .select({ balance: ledgerAccounts.balance })
    .from(ledgerAccounts)
    .where(
      and(
        eq(ledgerAccounts.systemCode, "marketing_budget"),
        eq(ledgerAccounts.book, "real"),
        eq(ledgerAccounts.currency, currency),
      ),
    );
  const [row] = opts.lock ? await query.for("update") : await query;
  return new MoneyDecimal(row?.balance ?? "0");
}

/** Every currency's marketing budget, and what sign-in rewards have paid from it, for the back office. */
export async function getMarketingBudget(db: DbOrTx) {
  const rows = await db
    .select({ currency: ledgerAccounts.currency, balance: ledgerAccounts.balance })
    .from(ledgerAccounts)
    .where(and(eq(ledgerAccounts.systemCode, "marketing_budget"), eq(ledgerAccounts.book, "real")))
    .orderBy(asc(ledgerAccounts.currency));
  const paid = await db.execute<{ currency: string; paid: string; claims: string }>(sql`
    select currency, sum(amount)::text as paid, count(*)::text as claims
    from sign_in_claims group by currency order by currency`);
  return rows.map((r) => {
    const p = paid.rows.find((x) => x.currency === r.currency);
    return {
      currency: r.currency,
      balance: new MoneyDecimal(r.balance).toFixed(),
      paid: new MoneyDecimal(p?.paid ?? "0").toFixed(),
      claims: Number(p?.claims ?? 0),
    };
  });
}

/**
 * An operator adds `amount` to the marketing budget: a ledger entry from `marketing_funding` (the
 * other side of money the company sets aside for rewards), audited. `key` makes a resent request
 * apply once.
 */
export async function fundMarketingBudget(
  db: Db,
  params: { currency: string; amount: string; actor: string; key?: string },
) {
  const amount = new MoneyDecimal(params.amount);
  if (!amount.isFinite() || amount.lessThanOrEqualTo(0)) {
    throw new AppError("AMOUNT_INVALID", {}, "amount");
  }
  if (!(await findCurrency(db, params.currency))) {
    throw new AppError("CURRENCY_UNSUPPORTED", { currency: params.currency }, "currency");
  }
  const key = params.key ?? randomUUID();
  return db.transaction(async (tx) => {
    const { applied } = await postEntry(tx, {
      idempotencyKey: `rewards.budget:${key}`,
      kind: "rewards.budget.fund",
      reference: { type: "marketing_budget", id: params.currency },
      memo: params.actor,
      postings: [
        {
          account: { system: "marketing_funding", book: "real", currency: params.currency },
          amount: amount.neg().toFixed(),
        },
        {
          account: { system: "marketing_budget", book: "real", currency: params.currency },
          amount: amount.toFixed(),
        },
      ],
    });
    if (applied) {
      await recordAudit(tx, {
        actor: params.actor,
        action: "rewards.budget.fund",
        subject: params.currency,
        details: { amount: amount.toFixed() },
      });
    }
    return {
      applied,
      currency: params.currency,
      balance: (await budgetBalance(tx, params.currency)).toFixed(),
    };
  });
}
