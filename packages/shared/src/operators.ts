/**
 * Back-office operators: their roles and, in ONE table, what each role may do. The admin API checks
 * every procedure against this table (each procedure declares one permission); the back office reads
 * the same table to offer only what the operator's role may use.
 */
/** What an operator's sign-in name may be: the API checks it and the back office's form says so first. */
export const OPERATOR_USERNAME = /^[a-z0-9][a-z0-9._-]{1,62}$/i;

export const OPERATOR_ROLES = ["admin", "finance", "support", "content", "compliance", "risk"] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

export const isOperatorRole = (value: unknown): value is OperatorRole =>
  typeof value === "string" && (OPERATOR_ROLES as readonly string[]).includes(value);

/** Roles that cannot use the back office until they have enrolled a second factor (TOTP). */
export const TOTP_REQUIRED_ROLES: readonly OperatorRole[] = ["admin", "finance"];

export const totpRequiredFor = (role: OperatorRole) => TOTP_REQUIRED_ROLES.includes(role);

const ALL = OPERATOR_ROLES;

/** Permission → the roles that hold it. */
export const PERMISSIONS = {
  /** Own account: who am I, enrol two-factor sign-in. Allowed before enrolment. */
  "account.enrol": ALL,
  /** Own account: own sessions (list, revoke), own recent actions. */
  "account.security": ALL,
  /** Look a user up: balances and recent ledger lines. */
  "users.read": ALL,
  /** Freeze a user (sessions end, sign-in and money actions refused) and unfreeze, with a reason. */
  "users.freeze": ["admin", "compliance"],
  "policy.read": ["admin", "finance", "risk"],
  "policy.write": ["admin"],
  /** Review deposits and withdrawals (list, confirm, reject). */
  "funding.review": ["admin", "finance"],
  "funding.addresses": ["admin", "finance"],
  /** Chain custody: sweeps of deposit addresses to the hot wallet, its top-ups, custody against the chain. */
  "chain.custody": ["admin", "finance"],
  /** Reconcile the ledger. */
  "ledger.read": ["admin", "finance", "risk"],
  "audit.read": ["admin", "compliance"],
  /** Review identity verification, including opening its document photos. */
  "kyc.review": ["admin", "compliance"],
  /** The instrument catalogue and product definitions (earn, loans, launchpad, C2C merchants). */
  "catalogue.manage": ["admin"],
  /** Read products, orders and queues of earn, loans, launchpad, C2C. */
  "products.read": ["admin", "finance", "risk"],
  /** Decide queued money actions: redemptions, loans, wires, C2C orders and stock. */
  "products.operate": ["admin", "finance"],
  /** Open exposure, house result, settled orders, liquidations. */
  "risk.read": ["admin", "finance", "risk"],
  /** Run a scheduled job now (yield, overdue loans, launchpad unlocks). */
  "jobs.run": ["admin"],
  /** Public texts such as the C2C rules. */
  "content.edit": ["admin", "content"],
  "proofs.publish": ["admin", "finance"],
  /** Answer customers in the live support chat (conversations, replies, the support socket channel). */
  "support.chat": ["admin", "support"],
  /** Add operators, change roles, disable, revoke others' sessions, reset two-factor. */
  "operators.manage": ["admin"],
} as const satisfies Record<string, readonly OperatorRole[]>;

export type Permission = keyof typeof PERMISSIONS;

export const PERMISSION_NAMES = Object.keys(PERMISSIONS) as Permission[];

export function can(role: OperatorRole | undefined, permission: Permission): boolean {
  return role !== undefined && (PERMISSIONS[permission] as readonly OperatorRole[]).includes(role);
}
