import { MoneyDecimal } from "@northstar/shared/money";
import { PROOF_BUCKETS, type ProofBucket } from "@northstar/shared/proofs";
import { c2cReservedClaims } from "../c2c/index.ts";
import type { DbOrTx } from "../db/client.ts";
import { custodyClaims } from "../earn/index.ts";
import { pendingWithdrawalHolds } from "../funding/index.ts";
import { launchpadHolds } from "../launchpad/index.ts";
import { type Book, systemBalance, userAccountBalances } from "../ledger/index.ts";
import { openOptionStakes } from "../options/index.ts";

/** One user's claims: per bucket (in PROOF_BUCKETS order), one amount per currency of the snapshot. */
export interface UserClaims {
  userId: number;
  breakdown: MoneyDecimal[][];
}

/**
 * The ledger's side of the user claims per currency: the real book's user accounts, plus the claims
 * that sit in system accounts (the `earn_custody` account, every merchant's `c2c_reserved:` account,
 * the open options' stakes in `options_house`) and the earn yield accrued but not yet posted.
 */
export interface LedgerClaims {
  currency: string;
  userAccounts: string;
  earnCustody: string;
  c2cReserved: string;
  optionStakes: string;
  accruedYield: string;
  total: string;
}

export interface Liabilities {
  currencies: string[];
  users: UserClaims[];
  ledger: LedgerClaims[];
  /** What does not hold between the modules' rows and the ledger (empty when they agree). */
  problems: string[];
}

const BUCKET = Object.fromEntries(PROOF_BUCKETS.map((b, i) => [b, i])) as Record<ProofBucket, number>;
const zero = () => new MoneyDecimal(0);
const sumOf = (rows: { currency: string; amount: string }[], currency: string) =>
  rows.filter((r) => r.currency === currency).reduce((s, r) => s.plus(r.amount), zero());

/** What the buckets are read from, each through its module's face. */
export interface ClaimSources {
  accounts: Awaited<ReturnType<typeof userAccountBalances>>;
  withdrawals: Awaited<ReturnType<typeof pendingWithdrawalHolds>>;
  launchpad: Awaited<ReturnType<typeof launchpadHolds>>;
  custody: Awaited<ReturnType<typeof custodyClaims>>;
  options: Awaited<ReturnType<typeof openOptionStakes>>;
  c2c: Awaited<ReturnType<typeof c2cReservedClaims>>;
}

/**
 * Reads every source of the buckets for a book at `now`: every user's, or with `userId` that user's
 * alone (the assets overview reads the same rows the proof does, so the two cannot differ).
 */
export async function readClaimSources(
  db: DbOrTx,
  book: Book,
  now: Date,
  userId?: number,
): Promise<ClaimSources> {
  return {
    accounts: await userAccountBalances(db, book, userId),
    withdrawals: await pendingWithdrawalHolds(db, userId),
    launchpad: await launchpadHolds(db, userId),
    custody: await custodyClaims(db, now, userId),
    options: await openOptionStakes(db, book, userId),
    c2c: await c2cReservedClaims(db, userId),
  };
}

/** One amount of one user's claim: a currency in a bucket (a user may have several per bucket and currency). */
export interface ClaimPart {
  userId: number;
  bucket: ProofBucket;
  currency: string;
  amount: string;
}

/**
 * The sources as bucket amounts. Available: every wallet's `available` bucket. Contract margin: the
 * contract wallet's `held`. Pending withdrawals and launchpad holds: the funding and launchpad rows,
 * held in the exchange wallet; `held` is what the other wallets' held buckets hold beyond them (open
 * spot orders). Earn principal and accrued yield, option stakes and C2C reservations come from the
 * owning modules' rows.
 */
export function claimParts(s: ClaimSources): ClaimPart[] {
  const parts: ClaimPart[] = [];
  for (const a of s.accounts) {
    const bucket =
      a.bucket === "available" ? "available" : a.wallet === "contract" ? "contract_margin" : "held";
    parts.push({ userId: a.userId, bucket, currency: a.currency, amount: a.balance });
  }
  // The holds named by funding and launchpad come out of the exchange wallet's held funds.
  const named = (bucket: ProofBucket, r: { userId: number; currency: string; amount: string }) => {
    parts.push({ userId: r.userId, bucket, currency: r.currency, amount: r.amount });
    parts.push({
      userId: r.userId,
      bucket: "held",
      currency: r.currency,
      amount: new MoneyDecimal(r.amount).neg().toFixed(),
    });
  };
  for (const r of s.withdrawals) {
    named("withdrawal", r);
  }
  for (const r of s.launchpad) {
    named("launchpad", r);
  }
  for (const r of s.custody) {
    parts.push({ userId: r.userId, bucket: "earn_principal", currency: r.currency, amount: r.principal });
    parts.push({ userId: r.userId, bucket: "earn_yield", currency: r.currency, amount: r.accruedYield });
  }
  for (const r of s.options) {
    parts.push({ userId: r.userId, bucket: "option_stake", currency: r.currency, amount: r.amount });
  }
  for (const r of s.c2c) {
    parts.push({ userId: r.userId, bucket: "c2c", currency: r.currency, amount: r.amount });
  }
  return parts;
}

/**
 * Every real user's claims by bucket at this instant (see `claimParts`), and the ledger's figures
 * they must equal. Call it in one repeatable-read transaction, so every query sees the same snapshot.
 */
export async function computeLiabilities(db: DbOrTx, now: Date): Promise<Liabilities> {
  const sources = await readClaimSources(db, "real", now);
  const { accounts, withdrawals, launchpad, custody, options, c2c } = sources;
  const custodyAccount = await systemBalance(db, "real", "earn_custody");
  const reservedAccounts = await systemBalance(db, "real", "c2c_reserved:", true);

  const currencies = [
    ...new Set([
      ...accounts.map((a) => a.currency),
      ...withdrawals.map((r) => r.currency),
      ...launchpad.map((r) => r.currency),
      ...custody.map((r) => r.currency),
      ...options.map((r) => r.currency),
      ...c2c.map((r) => r.currency),
      // A claim account holding a currency no row names still shows (and fails the check below).
      ...[...custodyAccount, ...reservedAccounts]
        .filter((r) => !new MoneyDecimal(r.balance).isZero())
        .map((r) => r.currency),
    ]),
  ].sort();
  const column = new Map(currencies.map((c, i) => [c, i]));
  const byUser = new Map<number, MoneyDecimal[][]>();
  for (const p of claimParts(sources)) {
    let breakdown = byUser.get(p.userId);
    if (!breakdown) {
      breakdown = PROOF_BUCKETS.map(() => currencies.map(zero));
      byUser.set(p.userId, breakdown);
    }
    const row = breakdown[BUCKET[p.bucket]] as MoneyDecimal[];
    const i = column.get(p.currency) as number;
    row[i] = (row[i] as MoneyDecimal).plus(p.amount);
  }

  const problems: string[] = [];
  const users = [...byUser.entries()]
    .sort(([a], [b]) => a - b)
    .map(([userId, breakdown]) => ({ userId, breakdown }));
  for (const u of users) {
    for (const [b, row] of u.breakdown.entries()) {
      for (const [i, amount] of row.entries()) {
        if (amount.isNegative()) {
          problems.push(
            `user ${u.userId} ${currencies[i]}: ${PROOF_BUCKETS[b]} ${amount.toFixed()} (the modules' holds exceed the ledger's held funds)`,
          );
        }
      }
    }
  }
  const accountTotals = new Map<string, MoneyDecimal>();
  for (const a of accounts) {
    accountTotals.set(a.currency, (accountTotals.get(a.currency) ?? zero()).plus(a.balance));
  }
  const ledger = currencies.map((currency): LedgerClaims => {
    const userAccounts = accountTotals.get(currency) ?? zero();
    const earnCustody = sumOf(
      custodyAccount.map((r) => ({ currency: r.currency, amount: r.balance })),
      currency,
    );
    const c2cReserved = sumOf(
      reservedAccounts.map((r) => ({ currency: r.currency, amount: r.balance })),
      currency,
    );
    const optionStakes = sumOf(options, currency);
    const accruedYield = sumOf(
      custody.map((r) => ({ currency: r.currency, amount: r.accruedYield })),
      currency,
    );
    const principal = sumOf(
      custody.map((r) => ({ currency: r.currency, amount: r.principal })),
      currency,
    );
    if (!principal.equals(earnCustody)) {
      problems.push(
        `${currency}: earn orders in custody hold ${principal.toFixed()}, the earn_custody account ${earnCustody.toFixed()}`,
      );
    }
    const reserved = sumOf(c2c, currency);
    if (!reserved.equals(c2cReserved)) {
      problems.push(
        `${currency}: C2C orders reserve ${reserved.toFixed()}, the c2c_reserved accounts ${c2cReserved.toFixed()}`,
      );
    }
    return {
      currency,
      userAccounts: userAccounts.toFixed(),
      earnCustody: earnCustody.toFixed(),
      c2cReserved: c2cReserved.toFixed(),
      optionStakes: optionStakes.toFixed(),
      accruedYield: accruedYield.toFixed(),
      total: userAccounts.plus(earnCustody).plus(c2cReserved).plus(optionStakes).plus(accruedYield).toFixed(),
    };
  });
  // The breakdown's totals equal the ledger's side, currency by currency.
  currencies.forEach((currency, i) => {
    const leaves = users.reduce(
      (s, u) => u.breakdown.reduce((t, row) => t.plus(row[i] as MoneyDecimal), s),
      zero(),
    );
    const claims = ledger[i] as LedgerClaims;
    if (!leaves.equals(claims.total)) {
      problems.push(
        `${currency}: the users' claims sum to ${leaves.toFixed()}, the ledger's user claims to ${claims.total}`,
      );
    }
  });
  return { currencies, users, ledger, problems };
}
