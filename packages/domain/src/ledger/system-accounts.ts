/**
 * The sign rule of every system account: the one table the ledger enforces where entries are posted
 * (the `ledger_accounts_system_rule` CHECK built from it, so an entry that would break a rule is
 * refused in its own statement, under the row lock of the balance update) and that reconciliation
 * reports. docs/security.md ("System-account rules") explains each one.
 *
 * - `not_negative`: the account holds something real (users' money in custody or escrow, income the
 *   platform has taken); it can never give more than it received.
 * - `not_positive`: the account mirrors value that flows one way from outside (or is created) and
 *   only ever gives; its balance is minus what it has given, net of what came back.
 * - `either`: the platform's own side of a trade or a bet, which may owe or be owed.
 *
 * A code `prefix:*` covers every `prefix:<key>` (one account per channel or merchant). A code the
 * table does not know is held to `not_negative`. Changing a rule changes the CHECK: run
 * `pnpm db:generate` and commit the migration.
 */
export type SystemAccountSign = "not_negative" | "not_positive" | "either";

export interface SystemAccountRule {
  sign: SystemAccountSign;
  /** Why the account has this rule (shown to operators by reconciliation and in the docs). */
  why: string;
}

export const SYSTEM_ACCOUNT_RULES = {
  "c2c_escrow:*": {
    sign: "not_negative",
    why: "a C2C merchant's free stock, funded by operators in the merchant's coin; an order can only reserve what is there",
  },
  "c2c_reserved:*": {
    sign: "not_negative",
    why: "stock that matched C2C orders reserved from the escrow; only what was reserved can be paid to the buyer or released",
  },
  c2c_supply: {
    sign: "not_positive",
    why: "mirrors the coins merchants hand over off the platform: funding debits it, a withdrawal of free stock gives back at most what was funded",
  },
  earn_custody: {
    sign: "not_negative",
    why: "users' principal in managed-earning orders; a maturity or redemption returns only principal that was subscribed",
  },
  earn_yield: {
    sign: "not_positive",
    why: "the yield the platform pays on managed-earning orders; it only pays, so its balance is minus the yield paid",
  },
  loans_pool: {
    sign: "not_positive",
    why: "the lending book: a disbursement debits it, principal repaid credits it back; never more principal comes back than went out, so it is minus the principal outstanding",
  },
  loan_interest: {
    sign: "not_negative",
    why: "interest income from loan repayments; nothing is paid out of it",
  },
  loan_late_fees: {
    sign: "not_negative",
    why: "late-fee income from loan repayments; nothing is paid out of it",
  },
  fees: {
    sign: "not_negative",
    why: "fee income (trading, withdrawal, early redemption, subscription); referral rewards pay a share of fees already taken, never more",
  },
  marketing_budget: {
    sign: "not_negative",
    why: "money operators set aside for rewards; a sign-in reward is paid only from what was funded",
  },
  marketing_funding: {
    sign: "not_positive",
    why: "the other side of marketing-budget top-ups (the platform's own money put into the budget); it only gives",
  },
  "deposit_clearing:*": {
    sign: "not_positive",
    why: "mirrors outside money arriving through a deposit channel (and wired loan repayments); it only gives, so its balance is minus what arrived",
  },
  "chain_custody:*": {
    sign: "not_positive",
    why: "coins the platform holds on a chain, one account per chain and place (`chain_custody:ERC20:deposits` on users' deposit addresses, `chain_custody:ERC20:hot` in the hot wallet); a deposit seen on chain debits it, a sweep moves it between places, so its balance is minus the coins there and nothing can leave a place more than arrived",
  },
  chain_gas: {
    sign: "not_positive",
    why: "the gas the platform pays on a chain (sweeps' top-ups and transfers, hot-wallet payouts), in the chain's own coin: an expense that only gives, so its balance is minus the gas spent, and chain custody stays equal to what is on chain",
  },
  "chain_funding:*": {
    sign: "not_negative",
    why: "the platform's own coins operators put into a chain's hot wallet from outside (one account per chain), booked against `chain_custody:<chain>:hot` once the node shows them arrived; it only receives",
  },
  "withdrawal_clearing:*": {
    sign: "not_negative",
    why: "mirrors money sent out through a withdrawal method; it only receives, so its balance is what left the platform",
  },
  demo_faucet: {
    sign: "not_positive",
    why: "creates the demo book's play money for demo accounts; it only gives, and the demo book never exchanges value with the real one",
  },
  house: {
    sign: "either",
    why: "the platform's own treasury: the counterparty of conversions at market price, so it may be short in one currency and long in another; backed by the platform's capital off the ledger",
  },
  market_maker: {
    sign: "either",
    why: "the spot market maker's inventory, quoted from the platform's capital without holds; it may sell more of a coin than it bought",
  },
  options_house: {
    sign: "either",
    why: "takes the other side of every option: it gains when buyers lose and pays when they win",
  },
  contracts_house: {
    sign: "either",
    why: "takes the other side of contract profit and loss, and receives overnight interest",
  },
  contracts_insurance: {
    sign: "either",
    why: "absorbs a loss beyond a position's margin so the user never pays more than the margin; nothing funds it yet, so its balance is minus what the platform absorbed",
  },
  launchpad_issuer: {
    sign: "either",
    why: "the issuer of a new coin: minus the coins allotted in the coin, plus what subscribers paid in the payment currency (owed to the issuer off the platform)",
  },
} as const satisfies Record<string, SystemAccountRule>;

type RuleName = keyof typeof SYSTEM_ACCOUNT_RULES;

/** Every system account code: one per rule, a keyed family (`deposit_clearing:<channel>`) per `prefix:*`. */
export type SystemCode = {
  [K in RuleName]: K extends `${infer P}:*` ? `${P}:${string}` : K;
}[RuleName];

const STRICTEST: SystemAccountRule = {
  sign: "not_negative",
  why: "a system account without a rule of its own is held to the strictest one",
};

/** The rule of a system account code (`deposit_clearing:bank` finds `deposit_clearing:*`). */
export function systemAccountRule(code: string): SystemAccountRule {
  const rules: Record<string, SystemAccountRule> = SYSTEM_ACCOUNT_RULES;
  const exact = rules[code];
  if (exact && !code.endsWith(":*")) {
    return exact;
  }
  const colon = code.indexOf(":");
  return (colon > 0 ? rules[`${code.slice(0, colon)}:*`] : undefined) ?? STRICTEST;
}

const quote = (s: string) => `'${s.replaceAll("'", "''")}'`;

/** A SQL condition on `system_code` naming every code of the given sign. */
function codesOf(sign: SystemAccountSign): string {
  const names = Object.entries(SYSTEM_ACCOUNT_RULES)
    .filter(([, rule]) => rule.sign === sign)
    .map(([name]) => name)
    .sort();
  const exact = names.filter((n) => !n.endsWith(":*"));
  const prefixes = names.filter((n) => n.endsWith(":*")).map((n) => n.slice(0, -1));
  return [
    ...(exact.length > 0 ? [`system_code in (${exact.map(quote).join(", ")})`] : []),
    ...prefixes.map((p) => `starts_with(system_code, ${quote(p)})`),
  ].join(" or ");
}

/**
 * True for a row of `ledger_accounts` that keeps its rule (a user's account always does here; its
 * own CHECK keeps it at zero or above). Used by the CHECK and by reconciliation alike.
 */
export const SYSTEM_RULE_SQL = `system_code is null or case when ${codesOf("either")} then true when ${codesOf("not_positive")} then balance <= 0 else balance >= 0 end`;

/** The CHECK constraint that enforces the rules. */
export const SYSTEM_RULE_CONSTRAINT = "ledger_accounts_system_rule";
