/**
 * Envelope codes of the legacy API (DESIGN.md section 5) and the domain error codes.
 * The web branches on these codes, never on message text.
 */
export const ResponseCode = {
  Ok: 0,
  Refused: 1,
  Quiet: 7,
  SessionEnded: 1000,
  NotLoggedIn: 2000,
  ServerError: 500,
} as const;
export type ResponseCode = (typeof ResponseCode)[keyof typeof ResponseCode];

/**
 * Domain error codes. Each maps to an envelope code and to an i18n key under `errors.` that
 * every language catalog must carry (checked by a test).
 */
export const ERROR_CODES = {
  ACCOUNT_OR_PASSWORD_EMPTY: ResponseCode.Refused,
  PASSWORDS_DIFFER: ResponseCode.Refused,
  PHONE_FORMAT: ResponseCode.Refused,
  EMAIL_FORMAT: ResponseCode.Refused,
  PASSWORD_LENGTH: ResponseCode.Refused,
  TRADE_PASSWORD_FORMAT: ResponseCode.Refused,
  CODE_EMPTY: ResponseCode.Refused,
  CODE_WRONG: ResponseCode.Refused,
  CODE_TOO_MANY_ATTEMPTS: ResponseCode.Refused,
  CODE_TOO_FREQUENT: ResponseCode.Refused,
  CODE_DAILY_LIMIT: ResponseCode.Refused,
  ACCOUNT_EXISTS: ResponseCode.Refused,
  ACCOUNT_NOT_FOUND: ResponseCode.Refused,
  WRONG_CREDENTIALS: ResponseCode.Refused,
  ACCOUNT_LOCKED: ResponseCode.Refused,
  ACCOUNT_FROZEN: ResponseCode.Refused,
  AGREEMENT_REQUIRED: ResponseCode.Refused,
  INVITE_CODE_REQUIRED: ResponseCode.Refused,
  INVITE_CODE_INVALID: ResponseCode.Refused,
  NATIONALITY_REQUIRED: ResponseCode.Refused,
  NATIONALITY_LOCKED: ResponseCode.Refused,
  OLD_PASSWORD_WRONG: ResponseCode.Refused,
  BIND_REQUIRED: ResponseCode.Refused,
  ALREADY_BOUND: ResponseCode.Refused,
  TRADE_PASSWORD_NOT_SET: ResponseCode.Refused,
  TRADE_PASSWORD_ALREADY_SET: ResponseCode.Refused,
  TRADE_PASSWORD_WRONG: ResponseCode.Refused,
  SECURITY_ANSWER_WRONG: ResponseCode.Refused,
  NICKNAME_INVALID: ResponseCode.Refused,
  UPLOAD_TYPE: ResponseCode.Refused,
  UPLOAD_TOO_LARGE: ResponseCode.Refused,
  UPLOAD_MISSING: ResponseCode.Refused,
  UPLOAD_DAILY_LIMIT: ResponseCode.Refused,
  UPLOAD_STORAGE_FULL: ResponseCode.Refused,
  UNKNOWN_CALL: ResponseCode.Refused,
  MALFORMED_REQUEST: ResponseCode.Refused,
  FIELD_INVALID: ResponseCode.Refused,
  FIELD_REQUIRED: ResponseCode.Refused,
  NETWORK_ERROR: ResponseCode.Refused,
  NOT_FOUND: ResponseCode.Refused,
  RATE_LIMITED: ResponseCode.Refused,
  LOGIN_REQUIRED: ResponseCode.NotLoggedIn,
  SESSION_ENDED: ResponseCode.SessionEnded,
  FORBIDDEN: ResponseCode.Refused,
  // Texts of SPEC section 8 that later modules raise; present now so every catalog carries them.
  INSUFFICIENT_BALANCE: ResponseCode.Refused,
  DEMO_EXPIRED: ResponseCode.Refused,
  KYC_REQUIRED: ResponseCode.Refused,
  ADVANCED_KYC_REQUIRED: ResponseCode.Refused,
  RECHARGE_CHANNEL_CLOSED: ResponseCode.Refused,
  LOAN_LIMIT_EXCEEDED: ResponseCode.Refused,
  INVALID_MNEMONIC: ResponseCode.Refused,
  INVESTMENT_NOT_POSITIVE: ResponseCode.Refused,
  QUANTITY_BELOW_MINIMUM: ResponseCode.Refused,
  PROOF_REQUIRED: ResponseCode.Refused,
  WITHDRAW_BELOW_MINIMUM: ResponseCode.Refused,
  WITHDRAW_ABOVE_MAXIMUM: ResponseCode.Refused,
  WITHDRAW_OUTSIDE_WINDOW: ResponseCode.Refused,
  WITHDRAW_DAILY_LIMIT: ResponseCode.Refused,
  WITHDRAW_TURNOVER_REQUIRED: ResponseCode.Refused,
  WITHDRAW_CHAIN_NOT_ALLOWED: ResponseCode.Refused,
  DEPOSIT_BELOW_MINIMUM: ResponseCode.Refused,
  DEPOSIT_ADDRESS_MISSING: ResponseCode.Refused,
  DEPOSIT_TX_HASH_USED: ResponseCode.Refused,
  ADDRESS_FORMAT: ResponseCode.Refused,
  AMOUNT_INVALID: ResponseCode.Refused,
  CURRENCY_UNSUPPORTED: ResponseCode.Refused,
  PRICE_UNAVAILABLE: ResponseCode.Refused,
  PRICE_CHANGED: ResponseCode.Refused,
  SAME_WALLET: ResponseCode.Refused,
  GOOGLE_CODE_REQUIRED: ResponseCode.Refused,
  GOOGLE_CODE_WRONG: ResponseCode.Refused,
  TRADE_PASSWORD_LOCKED: ResponseCode.Refused,
  SECURITY_ANSWER_LOCKED: ResponseCode.Refused,
  GOOGLE_CODE_LOCKED: ResponseCode.Refused,
  GOOGLE_CODE_USED: ResponseCode.Refused,
  OPERATOR_LOGIN_WRONG: ResponseCode.Refused,
  OPERATOR_LOCKED: ResponseCode.Refused,
  OPERATOR_LOGIN_THROTTLED: ResponseCode.Refused,
  GOOGLE_ALREADY_BOUND: ResponseCode.Refused,
  REAL_ACCOUNT_REQUIRED: ResponseCode.Refused,
  ALREADY_REVIEWED: ResponseCode.Refused,
  IDEMPOTENCY_KEY_REUSED: ResponseCode.Refused,
  REQUEST_IN_PROGRESS: ResponseCode.Refused,
  INSTRUMENT_NOT_FOUND: ResponseCode.Refused,
  INSTRUMENT_HAS_OPEN_ORDERS: ResponseCode.Refused,
  MARKET_CLOSED: ResponseCode.Refused,
  SPOT_NOT_AVAILABLE: ResponseCode.Refused,
  PRICE_OFF_TICK: ResponseCode.Refused,
  QUANTITY_OFF_LOT: ResponseCode.Refused,
  POST_ONLY_WOULD_TAKE: ResponseCode.Refused,
  NO_LIQUIDITY: ResponseCode.Refused,
  TOO_MANY_OPEN_ORDERS: ResponseCode.Refused,
  ORDER_NOT_FOUND: ResponseCode.Refused,
  ORDER_NOT_OPEN: ResponseCode.Refused,
  REQUEST_ERROR: ResponseCode.ServerError,
} as const;
export type ErrorCode = keyof typeof ERROR_CODES;

/** The i18n key of an error code: `ACCOUNT_OR_PASSWORD_EMPTY` → `errors.ACCOUNT_OR_PASSWORD_EMPTY`. */
export function errorMessageKey(code: ErrorCode): string {
  return `errors.${code}`;
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === "string" && Object.hasOwn(ERROR_CODES, value);
}
