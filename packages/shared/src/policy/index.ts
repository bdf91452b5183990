import { z } from "zod";
import { DELIVERY_ROLLS, type DeliveryRoll } from "../contracts/delivery-expiry.ts";
import { MoneyDecimal } from "../money.ts";
import {
  zChainCode,
  zCurrencyCode,
  zDailyWindow,
  zDecimal,
  zPositive,
  zRate,
  zShare,
  zTimeZone,
} from "./bounds.ts";

export { isTimeZone, policyConflict } from "./bounds.ts";

/** A decimal at or above zero (kyc caps, where "0" allows nothing). */
const zNonNegative = zDecimal;

/**
 * Every business constant and every choice where the spec's texts disagree, as a named policy value.
 * The default lives here; operators may override it (stored in the database, audited). The server
 * reads the merged value through one function in `@northstar/domain/policy`; the web shows the user
 * the same merged value through `policy.getPublic`.
 */
/** The most `uploads.maxBytes` may be set to; the server reads no larger upload. */
export const UPLOAD_BYTES_CEILING = 64 * 1024 * 1024;

export const POLICY = {
  /** Spec: 6–12 on one screen, 6–24 on another. We allow the wider range. */
  "identity.loginPassword.minLength": { schema: z.number().int().min(4).max(64), default: 6, public: true },
  "identity.loginPassword.maxLength": { schema: z.number().int().min(6).max(128), default: 24, public: true },
  /** Spec: optional in some texts, required in another. Optional by default. */
  "identity.inviteCode.required": { schema: z.boolean(), default: false, public: true },
  /** Verification codes live 10 minutes, can be resent after 60 s, 10 per target per day. */
  "identity.code.ttlSeconds": { schema: z.number().int().min(60).max(3600), default: 600, public: false },
  "identity.code.resendSeconds": { schema: z.number().int().min(10).max(600), default: 60, public: true },
  "identity.code.maxPerDay": { schema: z.number().int().min(1).max(100), default: 10, public: false },
  "identity.code.maxAttempts": { schema: z.number().int().min(1).max(20), default: 5, public: false },
  /** Five wrong passwords in a row lock the account for 15 minutes. */
  "identity.login.maxFailures": { schema: z.number().int().min(3).max(50), default: 5, public: false },
  "identity.login.lockMinutes": { schema: z.number().int().min(1).max(1440), default: 15, public: true },
  /** A session lasts 7 days from its last use. */
  "identity.session.ttlHours": {
    schema: z
      .number()
      .int()
      .min(1)
      .max(24 * 90),
    default: 168,
    public: false,
  },
  "identity.nickname.maxLength": { schema: z.number().int().min(4).max(64), default: 20, public: true },
  /**
   * Wallet sign-in (EIP-4361): a nonce lives 5 minutes and is used once; messages are accepted for
   * these chains only; an address (IP) may ask for this many nonces an hour; this many failed
   * sign-ins in a row from one address or for one wallet lock it for `lockMinutes`.
   */
  "identity.wallet.nonceTtlMinutes": { schema: z.number().int().min(1).max(60), default: 5, public: false },
  "identity.wallet.chainIds": {
    schema: z.array(z.number().int().positive()).min(1),
    default: [1] as number[],
    public: true,
  },
  "identity.wallet.noncesPerHour": { schema: z.number().int().min(1).max(1000), default: 30, public: false },
  "identity.wallet.maxFailures": { schema: z.number().int().min(1).max(50), default: 5, public: false },
  "identity.wallet.lockMinutes": { schema: z.number().int().min(1).max(1440), default: 15, public: true },
  /** The most wallets one account may link. */
  "identity.wallet.maxPerUser": { schema: z.number().int().min(1).max(20), default: 5, public: true },
  /**
   * Attempt limits on secrets: this many wrong guesses in a row (through any call that checks the
   * secret) lock it for `lockMinutes`; while locked even the right answer is refused.
   */
  "security.tradePassword.maxFailures": { schema: z.number().int().min(1).max(50), default: 5, public: true },
  "security.tradePassword.lockMinutes": {
    schema: z.number().int().min(1).max(1440),
    default: 15,
    public: true,
  },
  "security.totp.maxFailures": { schema: z.number().int().min(1).max(50), default: 5, public: true },
  "security.totp.lockMinutes": { schema: z.number().int().min(1).max(1440), default: 15, public: true },
  "security.securityAnswer.maxFailures": {
    schema: z.number().int().min(1).max(50),
    default: 5,
    public: true,
  },
  "security.securityAnswer.lockMinutes": {
    schema: z.number().int().min(1).max(1440),
    default: 15,
    public: true,
  },
  /**
   * How long a check of a secret waits for a free attempt slot when as many attempts as the limit
   * allows are already in flight (each holds a slot until its answer is known); after this it is
   * refused as busy, never as locked and never counted.
   */
  "security.secretAttempts.waitSeconds": {
    schema: z.number().int().min(1).max(60),
    default: 30,
    public: false,
  },
  /**
   * Operator sign-in: failures lock the name from the address they came from (`maxFailures`), so
   * guesses from one address cannot lock the operator out at another; failures from one address (any
   * name) throttle that address; and failures from all addresses together lock the name everywhere
   * at the much higher `globalMaxFailures`, a bound on guessing spread over many addresses.
   */
  "security.operatorLogin.maxFailures": {
    schema: z.number().int().min(1).max(50),
    default: 5,
    public: false,
  },
  "security.operatorLogin.lockMinutes": {
    schema: z.number().int().min(1).max(1440),
    default: 15,
    public: false,
  },
  "security.operatorLogin.addressMaxFailures": {
    schema: z.number().int().min(1).max(1000),
    default: 20,
    public: false,
  },
  "security.operatorLogin.addressLockMinutes": {
    schema: z.number().int().min(1).max(1440),
    default: 15,
    public: false,
  },
  "security.operatorLogin.globalMaxFailures": {
    schema: z.number().int().min(5).max(10000),
    default: 100,
    public: false,
  },
  "security.operatorLogin.globalLockMinutes": {
    schema: z.number().int().min(1).max(1440),
    default: 15,
    public: false,
  },
  /** Spec section 9: image upload limit 8 MB. */
  "uploads.maxBytes": {
    schema: z.number().int().min(1024).max(UPLOAD_BYTES_CEILING),
    default: 8 * 1024 * 1024,
    public: true,
  },
  /** Per user: images in any 24 hours, and bytes stored in all (replaced avatars included). */
  "uploads.maxPerDay": { schema: z.number().int().min(1).max(1000), default: 30, public: true },
  "uploads.maxTotalBytes": {
    schema: z
      .number()
      .int()
      .min(1024 * 1024)
      .max(100 * 1024 * 1024 * 1024),
    default: 1024 * 1024 * 1024,
    public: true,
  },

  // Money (SPEC section 9). Amounts are decimal strings, never numbers.
  /** Deposit channels; a closed one answers "this recharge channel has not been opened yet". */
  "funding.deposit.channels": {
    schema: z.object({ crypto: z.boolean(), bank: z.boolean() }),
    default: { crypto: true, bank: false },
    public: true,
  },
  "funding.deposit.minimums": {
    schema: z.record(zCurrencyCode, zPositive),
    default: { USDT: "1", BTC: "0.001", ETH: "0.1", TRX: "10" } as Record<string, string>,
    public: true,
  },
  "funding.withdraw.perDay": { schema: z.number().int().min(1).max(100), default: 2, public: true },
  /** Compared in USDT value; the minimum may not exceed the maximum (checked across both keys). */
  "funding.withdraw.minUsdt": { schema: zPositive, default: "100", public: true },
  "funding.withdraw.maxUsdt": { schema: zPositive, default: "200000", public: true },
  /** Withdrawals are accepted from 12:00 to 24:00 Hong Kong time. */
  "funding.withdraw.window": {
    schema: zDailyWindow,
    default: { start: 12, end: 24, timeZone: "Asia/Hong_Kong" },
    public: true,
  },
  /** Which currency leaves on which chains: USDT on ERC20 only. */
  "funding.withdraw.chains": {
    schema: z.record(zCurrencyCode, z.array(zChainCode).min(1)),
    default: { USDT: ["ERC20"] } as Record<string, string[]>,
    public: true,
  },
  /** Share of total deposits that must have been used (traded, converted) before withdrawing. */
  "funding.withdraw.turnoverRatio": { schema: zShare, default: "0.9", public: true },
  /** Withdrawal fee, taken from the amount: the user receives amount × (1 − rate). */
  "funding.withdraw.feeRate": { schema: zRate, default: "0.05", public: true },
  /**
   * Hot-wallet payouts (chains with a node): a withdrawal is done after this many confirmations of
   * its transaction (the including block counts as one), per chain and currency; a chain or currency
   * not named waits for `default`.
   */
  "chain.withdraw.confirmations": {
    schema: z.object({
      default: z.number().int().min(1).max(1000),
      byChain: z.record(zChainCode, z.record(zCurrencyCode, z.number().int().min(1).max(1000))),
    }),
    default: { default: 12, byChain: { ERC20: { ETH: 12, USDT: 12 } } } as {
      default: number;
      byChain: Record<string, Record<string, number>>;
    },
    public: true,
  },
  /**
   * What the hot wallet may send per currency in a UTC day (the amounts users receive); a withdrawal
   * that would pass it waits for an operator to release it. A currency not named has no limit.
   */
  "chain.withdraw.dailyLimit": {
    schema: z.record(zCurrencyCode, zPositive),
    default: { ETH: "50", USDT: "200000" } as Record<string, string>,
    public: false,
  },
  /** A payout transaction not included this many seconds after it was sent is replaced (same nonce, higher fee). */
  "chain.withdraw.stuckSeconds": {
    schema: z.number().int().min(10).max(86_400),
    default: 600,
    public: false,
  },
  /**
   * A payout transaction not included this many blocks after it was signed is replaced too (same
   * nonce, higher fee), whichever of this and `chain.withdraw.stuckSeconds` comes first.
   */
  "chain.withdraw.stuckAfterBlocks": {
    schema: z.number().int().min(1).max(100_000),
    default: 50,
    public: false,
  },
  /** How much a replacement raises both fee caps, in percent (nodes refuse less than 10). */
  "chain.withdraw.feeBumpPercent": { schema: z.number().int().min(10).max(500), default: 25, public: false },
  /** Gas limit of a payout: a native transfer, and an ERC20 `transfer` call. */
  "chain.withdraw.gasLimits": {
    schema: z.object({
      native: z.number().int().min(21_000).max(1_000_000),
      token: z.number().int().min(21_000).max(1_000_000),
    }),
    default: { native: 21_000, token: 100_000 },
    public: false,
  },
  /** Spread on currency conversion, against the user, shown before confirming. */
  "funding.convert.spread": { schema: zRate, default: "0.002", public: true },
  /**
   * A conversion quote is firm for this many seconds: confirming within them converts exactly the
   * quoted amounts; after them the quote is refused as expired and the user asks for a new one.
   */
  "funding.convert.quoteSeconds": { schema: z.number().int().min(3).max(60), default: 10, public: true },
  /**
   * Deposits on a watched chain (an EVM node configured): how many blocks, counting the one that holds
   * the transfer, before it is credited, per chain and currency. The minimum is
   * `funding.deposit.minimums`: a transfer below it is recorded and never credited.
   */
  "chain.deposit.confirmations": {
    schema: z.record(zChainCode, z.record(zCurrencyCode, z.number().int().min(1).max(10_000))),
    default: { ERC20: { ETH: 12, USDT: 12 } } as Record<string, Record<string, number>>,
    public: true,
  },
  /**
   * Sweeps (an operator's command moving coins from users' deposit addresses to the hot wallet): an
   * address is swept in a currency when it holds at least this much of it (for the chain's own coin,
   * after the transfer's gas); a currency not named is not swept.
   */
  "chain.sweep.minAmount": {
    schema: z.record(zCurrencyCode, zPositive),
    default: { USDT: "100", ETH: "0.05" } as Record<string, string>,
    public: false,
  },
  /** Blocks (the including one counts) before a sweep's transfer is confirmed and booked to the hot wallet. */
  "chain.sweep.confirmations": {
    schema: z.number().int().min(1).max(1000),
    default: 12,
    public: false,
  },
  /** The chain watcher reads at most this many blocks per pass (one transaction per block). */
  "chain.watcher.maxBlocksPerPass": {
    schema: z.number().int().min(1).max(10_000),
    default: 100,
    public: false,
  },
  /** Demo accounts: the simulated amounts offered, and how long a demo account lives. */
  "demo.amounts": { schema: z.array(zPositive).min(1), default: ["10000", "50000", "100000"], public: true },
  "demo.ttlDays": { schema: z.number().int().min(1).max(90), default: 7, public: true },

  /**
   * Idempotency keys of money actions (withdrawal, transfer, conversion): an answer is kept this long
   * for a retry to get again; a claim that never finished (a crashed process) is released after
   * `staleSeconds`, when a retry may run the action anew.
   */
  "idempotency.retentionHours": {
    schema: z
      .number()
      .int()
      .min(1)
      .max(24 * 30),
    default: 24,
    public: false,
  },
  "idempotency.staleSeconds": { schema: z.number().int().min(10).max(3600), default: 120, public: false },

  // Spot trading (issue: spot order book). Fees are taken from what each side receives.
  "spot.fee.maker": { schema: zRate, default: "0.001", public: true },
  "spot.fee.taker": { schema: zRate, default: "0.001", public: true },
  /** Ask for the 6-digit trade password with every order. */
  "spot.tradePassword.required": { schema: z.boolean(), default: false, public: true },
  /** A market buy by quantity pays at most this share above the best ask; the rest is cancelled. */
  "spot.marketProtection": { schema: zRate, default: "0.05", public: true },
  /**
   * A market order trades at the book's prices, which the market maker quotes around the feed's: when
   * the feed's latest price of the market is older than this, the market takes no market order.
   */
  "spot.maxTickAgeMs": { schema: z.number().int().min(500).max(60_000), default: 5000, public: true },
  /**
   * Live price sources (ccxt, Yahoo): a source that has given no new price (no newer source time) for
   * this long, because it fails or just repeats itself, pauses its markets: no new orders or positions
   * until a new price arrives.
   */
  "feeds.staleAfterSeconds": { schema: z.number().int().min(5).max(3600), default: 60, public: true },
  /** How often the Yahoo feed polls its quotes (one request for every instrument mapped to it). */
  "feeds.yahoo.pollIntervalMs": {
    schema: z.number().int().min(1000).max(60_000),
    default: 5000,
    public: true,
  },
  /** Open orders one user may have in one market. */
  "spot.maxOpenOrders": { schema: z.number().int().min(1).max(10_000), default: 200, public: true },
  // API keys for trading bots (issue 27): keys per user, the signed-request window, limits per key.
  "apikeys.maxPerUser": { schema: z.number().int().min(1).max(100), default: 20, public: true },
  /** The most a signed request's `recvWindow` may be, in ms (Binance allows 60000). */
  "apikeys.maxRecvWindowMs": {
    schema: z.number().int().min(1000).max(60_000),
    default: 60_000,
    public: true,
  },
  /** Signed requests one key may make each second (HTTP 429 with Retry-After beyond it). */
  "apikeys.requestsPerSecond": { schema: z.number().int().min(1).max(10_000), default: 50, public: true },
  /** New orders one key may place each second. */
  "apikeys.ordersPerSecond": { schema: z.number().int().min(1).max(10_000), default: 10, public: true },
  /**
   * The built-in market maker: `levels` quotes a side, the first `spread` away from the feed price,
   * each next one `step` further, each worth about `levelNotionalUsdt`; refreshed every `refreshMs`.
   */
  "spot.marketMaker": {
    schema: z.object({
      enabled: z.boolean(),
      levels: z.number().int().min(1).max(50),
      spread: zRate,
      step: zRate,
      levelNotionalUsdt: zPositive,
      refreshMs: z.number().int().min(200).max(60_000),
    }),
    default: {
      enabled: true,
      levels: 10,
      spread: "0.0005",
      step: "0.0005",
      levelNotionalUsdt: "20000",
      refreshMs: 1000,
    },
    public: false,
  },
  // Verification (issue 11: kyc).
  /**
   * Maximum investment per order, in USDT, by risk level (SPEC section 9: "risk level sets the maximum
   * investment"). "notAssessed" is a user who has not answered the questionnaire: small orders only,
   * so the product can be tried before the questionnaire; "0" would refuse every order until then.
   */
  "kyc.risk.maxPerOrderUsdt": {
    schema: z.object({
      notAssessed: zNonNegative,
      conservative: zNonNegative,
      balanced: zNonNegative,
      aggressive: zNonNegative,
    }),
    default: { notAssessed: "1000", conservative: "10000", balanced: "100000", aggressive: "1000000" },
    public: true,
  },
  /**
   * The riskiest product a user who has not answered the risk questionnaire may buy (an earn product
   * states the level it needs); "none" asks every buyer to answer it first.
   */
  "kyc.risk.unassessedMayBuy": {
    schema: z.enum(["none", "conservative", "balanced", "aggressive"]),
    default: "conservative",
    public: true,
  },
  /** Questionnaire score from which a user is balanced, and aggressive (below: conservative). */
  "kyc.risk.thresholds": {
    schema: z
      .object({ balanced: z.number().int().min(1).max(100), aggressive: z.number().int().min(1).max(100) })
      .refine((t) => t.balanced < t.aggressive),
    default: { balanced: 6, aggressive: 12 },
    public: true,
  },
  /**
   * The credit score's published formula: base + verified levels + account age (per full month, up to
   * a cap) + repayment history + an operator's assessment, kept within 0..max.
   */
  "kyc.credit.points": {
    schema: z.object({
      base: z.number().int().min(0).max(10_000),
      primary: z.number().int().min(0).max(10_000),
      advanced: z.number().int().min(0).max(10_000),
      address: z.number().int().min(0).max(10_000),
      perMonthOfAge: z.number().int().min(0).max(1000),
      ageCap: z.number().int().min(0).max(10_000),
      perOnTimeRepayment: z.number().int().min(0).max(1000),
      perLateRepayment: z.number().int().min(0).max(1000),
      assessmentMax: z.number().int().min(0).max(10_000),
      max: z.number().int().min(1).max(10_000),
    }),
    default: {
      base: 300,
      primary: 150,
      advanced: 150,
      address: 50,
      perMonthOfAge: 5,
      ageCap: 100,
      perOnTimeRepayment: 10,
      perLateRepayment: 50,
      assessmentMax: 200,
      max: 1000,
    },
    public: true,
  },
  /** Loan limit by credit score: the highest row whose `minScore` the score reaches (SPEC section 6). */
  "kyc.credit.loanLimits": {
    schema: z
      .array(z.object({ minScore: z.number().int().min(0).max(10_000), limitUsdt: zNonNegative }))
      .min(1),
    default: [
      { minScore: 0, limitUsdt: "0" },
      { minScore: 450, limitUsdt: "1000" },
      { minScore: 600, limitUsdt: "5000" },
      { minScore: 750, limitUsdt: "20000" },
      { minScore: 900, limitUsdt: "50000" },
    ],
    public: true,
  },

  // Managed earning (issue 12). Spec: early redemption loses 5% in one text.
  /** The `percent` early-redemption rule: this share of the principal is kept as the penalty. */
  "earn.redemption.percent": { schema: zRate, default: "0.05", public: true },
  /** When true, an early redemption waits for an operator's approval; otherwise it settles at once. */
  "earn.redemption.review": { schema: z.boolean(), default: false, public: true },
  /** New-coin subscription fee, a share of the amount allocated, taken at allocation. */
  "launchpad.feeRate": { schema: zRate, default: "0", public: true },

  // Options (issue 13): fixed-expiry up/down options, paid in USDT from the `option` wallet.
  /**
   * The products per instrument: each expiry period with its payout rate (profit on a win as a share
   * of the amount), fee rate (paid on top of the amount), minimum and maximum amount in USDT; and
   * what a tie (settlement price equal to the purchase price) pays: the amount back, or nothing.
   */
  "options.products": {
    schema: z.record(
      z.string().regex(/^[A-Z0-9][A-Z0-9._-]{0,31}$/),
      z.object({
        periods: z
          .array(
            z.object({
              seconds: z
                .number()
                .int()
                .min(10)
                .max(7 * 86_400),
              payoutRate: zPositive,
              feeRate: zRate,
              min: zPositive,
              max: zPositive,
            }),
          )
          .min(1)
          .max(12),
        tie: z.enum(["refund", "loss"]),
      }),
    ),
    default: Object.fromEntries(
      ["BTCUSDT", "ETHUSDT", "BNBUSDT", "SOLUSDT", "XRPUSDT", "EURUSD", "XAUUSD"].map((symbol) => [
        symbol,
        {
          periods: [
            { seconds: 30, payoutRate: "0.8", feeRate: "0.01", min: "10", max: "10000" },
            { seconds: 60, payoutRate: "0.82", feeRate: "0.01", min: "10", max: "20000" },
            { seconds: 120, payoutRate: "0.85", feeRate: "0.01", min: "10", max: "20000" },
            { seconds: 300, payoutRate: "0.88", feeRate: "0.01", min: "10", max: "50000" },
            { seconds: 3600, payoutRate: "0.9", feeRate: "0.01", min: "10", max: "50000" },
            { seconds: 86_400, payoutRate: "0.92", feeRate: "0.01", min: "10", max: "100000" },
          ],
          tie: "refund" as "refund" | "loss",
        },
      ]),
    ) as Record<
      string,
      {
        periods: { seconds: number; payoutRate: string; feeRate: string; min: string; max: string }[];
        tie: "refund" | "loss";
      }
    >,
    public: true,
  },
  /** A purchase takes the latest recorded tick; one older than this means the feed is stale: refused. */
  "options.maxTickAgeMs": { schema: z.number().int().min(500).max(60_000), default: 5000, public: true },
  /**
   * An order settles on the first recorded tick at or after its expiry only if that tick comes within
   * this many seconds; with none in that window (the feed stopped, the market closed) the order is
   * void and its amount and fee are refunded in full. Never a later or an earlier price.
   */
  "options.settlement.maxGapSeconds": {
    schema: z.number().int().min(1).max(3600),
    default: 10,
    public: true,
  },
  /**
   * Recorded ticks are kept this long; older ones are deleted unless an order names them (its
   * purchase or settlement tick) or an open order may still settle on them.
   */
  "options.tickRetentionHours": {
    schema: z
      .number()
      .int()
      .min(1)
      .max(24 * 90),
    default: 48,
    public: false,
  },

  // Loans (issue 15). Spec section 9: 3 interest-free days after the due day, then a late fee.
  /** Days after the due day without a late fee; from the next day each day adds one late fee. */
  "loans.graceDays": { schema: z.number().int().min(0).max(90), default: 3, public: true },
  /** The proofs an application must carry (SPEC section 3: credit, housing, income, bank, ID photo). */
  "loans.requiredProofs": {
    schema: z.array(z.enum(["credit", "housing", "income", "bank", "id_photo"])).max(5),
    default: ["credit", "housing", "income", "bank", "id_photo"] as (
      | "credit"
      | "housing"
      | "income"
      | "bank"
      | "id_photo"
    )[],
    public: true,
  },
  /**
   * The platform's account that loan repayments by wire are paid into, shown on the repayment form.
   * Empty (the default) until an operator sets it: the form then offers repayment from the balance
   * only, since a user cannot wire to an account nobody has published.
   */
  "loans.wire.account": {
    schema: z.object({
      bankName: z.string().trim().max(120),
      accountName: z.string().trim().max(120),
      accountNumber: z.string().trim().max(64),
      swift: z.string().trim().max(20),
    }),
    default: { bankName: "", accountName: "", accountNumber: "", swift: "" },
    public: true,
  },
  // C2C purchase by wire (issue 15). Spec section 9: C2C and wire orders are valid 3 hours.
  /** An order not paid (no proof) this long after it was matched (or created, while unmatched) expires. */
  "c2c.orderValidityMinutes": {
    schema: z
      .number()
      .int()
      .min(5)
      .max(7 * 24 * 60),
    default: 180,
    public: true,
  },
  /** A user may have this many open orders (unmatched, matched or paid) at once. */
  "c2c.maxOpenOrders": { schema: z.number().int().min(1).max(100), default: 3, public: true },
  // Customer service: a chat is for people, so each side is held to a pace a person writes at.
  /** A user may send this many lines (text or image) to customer service per minute. */
  "support.userLinesPerMinute": { schema: z.number().int().min(1).max(600), default: 20, public: true },
  /** One operator may send this many replies per minute (across conversations). */
  "support.operatorLinesPerMinute": {
    schema: z.number().int().min(1).max(6000),
    default: 120,
    public: false,
  },
  // Contracts (issue 14): perpetual and delivery contracts on margin from the `contract` wallet.
  /**
   * The leverage levels a user may pick, per asset class (an instrument's own maximum in the
   * catalogue caps them further): up to 100x crypto perpetuals and forex, lower for stocks.
   */
  "contracts.leverage": {
    schema: z.record(z.string(), z.array(z.number().int().min(1).max(200)).min(1).max(20)),
    default: {
      // 25x is the bitcoin CFD's top level (its cap in contracts.maxLeverage).
      crypto: [1, 2, 5, 10, 20, 25, 50, 100],
      forex: [1, 10, 20, 50, 100],
      stocks: [1, 2, 5, 10],
      indices: [1, 5, 10, 20, 50],
      etfs: [1, 2, 5, 10],
      metals: [1, 10, 20, 50, 100],
      energy: [1, 5, 10, 20, 50],
    } as Record<string, number[]>,
    public: true,
  },
  /**
   * The highest leverage a contract product may offer, per asset class (lower-case keys) and per
   * instrument (its symbol: the bitcoin CFD at 25x); a product's levels above its class's cap or its
   * own are never offered, whatever `contracts.leverage` or `contracts.products` list.
   */
  "contracts.maxLeverage": {
    schema: z.record(
      z.string().regex(/^[a-z]+$|^[A-Z0-9][A-Z0-9._-]{0,31}$/),
      z.number().int().min(1).max(200),
    ),
    default: {
      crypto: 100,
      forex: 100,
      stocks: 10,
      indices: 50,
      etfs: 10,
      metals: 100,
      energy: 50,
      BTCUSD: 25,
    } as Record<string, number>,
    public: true,
  },
  /**
   * The terms of every contract product, per asset class: trading fee rate (each open and close, on
   * the notional), overnight interest per day (on the notional), maintenance margin rate, lot step
   * and the minimum and maximum lots per order.
   */
  "contracts.terms": {
    schema: z.record(
      z.string(),
      z.object({
        feeRate: zRate,
        overnightRate: zRate,
        maintenanceRate: zRate,
        lotStep: zPositive,
        minLots: zPositive,
        maxLots: zPositive,
      }),
    ),
    default: Object.fromEntries(
      ["crypto", "forex", "stocks", "indices", "etfs", "metals", "energy"].map((category) => [
        category,
        {
          feeRate: "0.0005",
          overnightRate: category === "crypto" ? "0.0003" : "0.0002",
          maintenanceRate: "0.005",
          lotStep: "0.01",
          minLots: "0.01",
          maxLots: "100",
        },
      ]),
    ) as Record<
      string,
      {
        feeRate: string;
        overnightRate: string;
        maintenanceRate: string;
        lotStep: string;
        minLots: string;
        maxLots: string;
      }
    >,
    public: true,
  },
  /**
   * Per-instrument products over the class terms: disabled, a delivery contract with its expiry, its
   * own leverage levels (e.g. the bitcoin CFD at 25x) or terms. An instrument not listed trades as a
   * perpetual on its class terms when the catalogue gives it the contract kind (or as a rolling
   * delivery contract when `contracts.rollingDelivery` names it).
   */
  "contracts.products": {
    schema: z.record(
      z.string().regex(/^[A-Z0-9][A-Z0-9._-]{0,31}$/),
      z.object({
        enabled: z.boolean().optional(),
        type: z.enum(["perpetual", "delivery"]).optional(),
        expiresAt: z.string().datetime().optional(),
        leverage: z.array(z.number().int().min(1).max(200)).min(1).max(20).optional(),
        feeRate: zRate.optional(),
        overnightRate: zRate.optional(),
        maintenanceRate: zRate.optional(),
        lotStep: zPositive.optional(),
        minLots: zPositive.optional(),
        maxLots: zPositive.optional(),
      }),
    ),
    default: {} as Record<
      string,
      {
        enabled?: boolean;
        type?: "perpetual" | "delivery";
        expiresAt?: string;
        leverage?: number[];
        feeRate?: string;
        overnightRate?: string;
        maintenanceRate?: string;
        lotStep?: string;
        minLots?: string;
        maxLots?: string;
      }
    >,
    public: true,
  },
  /**
   * Delivery contracts that roll: each listed instrument (with the contract kind) is a delivery
   * contract whose expiry is always the next weekly or quarterly one (`contracts.deliveryTime`); a
   * position keeps the expiry it was opened with and is settled at the first price recorded at or
   * after it. An entry in `contracts.products` for the same instrument (a type or a fixed expiry)
   * wins. The seeded catalogue's weekly and quarterly bitcoin and ether contracts.
   */
  "contracts.rollingDelivery": {
    schema: z.record(z.string().regex(/^[A-Z0-9][A-Z0-9._-]{0,31}$/), z.enum(DELIVERY_ROLLS)),
    default: {
      "BTCUSDT-W": "weekly",
      "BTCUSDT-Q": "quarterly",
      "ETHUSDT-W": "weekly",
      "ETHUSDT-Q": "quarterly",
    } as Record<string, DeliveryRoll>,
    public: true,
  },
  /**
   * When rolling delivery contracts expire (UTC): a weekday (0 Sunday … 6 Saturday) and a time;
   * quarterly ones on the last such weekday of March, June, September and December.
   */
  "contracts.deliveryTime": {
    schema: z.object({
      weekday: z.number().int().min(0).max(6),
      time: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/),
    }),
    default: { weekday: 5, time: "08:00" },
    public: true,
  },
  /** Extra margin a user may add to a position, as a multiple of its initial margin. */
  "contracts.maxExtraMarginRatio": { schema: zPositive, default: "5", public: true },
  /** The hour (UTC) at which the day's overnight interest is charged to positions held then. */
  "contracts.overnightHourUtc": { schema: z.number().int().min(0).max(23), default: 0, public: true },
  /**
   * Recorded contract ticks are kept this many days; older ones are deleted unless a position still
   * needs them (see the contract-delivery queue's tick retention run).
   */
  "contracts.tickRetentionDays": { schema: z.number().int().min(1).max(3650), default: 30, public: false },
  /** A market order takes the latest recorded tick; one older than this means the feed is stale: refused. */
  "contracts.maxTickAgeMs": { schema: z.number().int().min(500).max(60_000), default: 5000, public: true },
  // Referrals (issue 16). Spec: four levels in most texts, three in one; four by default.
  /**
   * The share of an invitee's trading fees paid to each level of inviters above them (first: the
   * one who invited them). The list's length is the number of levels; together the shares never
   * exceed the whole fee.
   */
  "referral.levelRates": {
    schema: z
      .array(zRate)
      .min(1)
      .max(10)
      .refine((rates) => rates.reduce((sum, r) => sum.plus(r), new MoneyDecimal(0)).lessThanOrEqualTo(1)),
    default: ["0.2", "0.1", "0.05", "0.02"] as string[],
    public: true,
  },
  // Daily sign-in (issue 16). Spec section 9: the sign-in reward spans 7 days.
  /** The reward of each day of the 7-day cycle (day 1 first), paid from the marketing budget. */
  "rewards.signIn.dailyRewards": {
    schema: z.array(zDecimal).length(7),
    default: ["0.1", "0.1", "0.2", "0.2", "0.3", "0.5", "1"] as string[],
    public: true,
  },
  /** The currency sign-in rewards are paid in, to the exchange wallet. */
  "rewards.signIn.currency": { schema: zCurrencyCode, default: "USDT", public: true },
  /** A missed calendar day restarts the cycle at day 1 (otherwise the next claim continues it). */
  "rewards.signIn.restartOnMiss": { schema: z.boolean(), default: true, public: true },
  /** The time zone a user's calendar day is counted in until their first claim gives their own. */
  "rewards.signIn.defaultTimeZone": { schema: zTimeZone, default: "Asia/Hong_Kong", public: true },
} as const;

export type PolicyKey = keyof typeof POLICY;
export type PolicyValue<K extends PolicyKey> = z.output<(typeof POLICY)[K]["schema"]>;

export const POLICY_KEYS = Object.keys(POLICY) as PolicyKey[];

export function isPolicyKey(value: string): value is PolicyKey {
  return Object.hasOwn(POLICY, value);
}

export type PolicySnapshot = { [K in PolicyKey]: PolicyValue<K> };

export function policyDefaults(): PolicySnapshot {
  const out: Record<string, unknown> = {};
  for (const key of POLICY_KEYS) {
    out[key] = POLICY[key].default;
  }
  return out as PolicySnapshot;
}
