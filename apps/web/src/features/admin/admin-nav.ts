import { can, type Permission } from "@northstar/shared/operators";
import type { Operator } from "./admin-types.ts";

/**
 * The back office's pages and the permission each needs, read from the one permission table
 * (packages/shared/src/operators.ts) that the API enforces, so the menu offers nothing the server
 * would refuse. The server still checks every call.
 */
export const ADMIN_PAGES = [
  { key: "deposits", permission: "funding.review" },
  { key: "withdrawals", permission: "funding.review" },
  { key: "deposit-addresses", permission: "funding.addresses" },
  { key: "chain", permission: "funding.review" },
  { key: "instruments", permission: "catalogue.manage" },
  { key: "users", permission: "users.read" },
  { key: "ledger", permission: "ledger.read" },
  { key: "policy", permission: "policy.read" },
  { key: "audit", permission: "audit.read" },
  { key: "kyc", permission: "kyc.review" },
  { key: "earn", permission: "products.read" },
  { key: "launchpad", permission: "products.read" },
  { key: "options", permission: "risk.read" },
  { key: "loans", permission: "products.read" },
  { key: "c2c", permission: "products.read" },
  { key: "contracts", permission: "risk.read" },
  { key: "proofs", permission: "proofs.publish" },
  { key: "referral", permission: "products.read" },
  { key: "rewards", permission: "products.read" },
  { key: "support", permission: "support.chat" },
  { key: "operators", permission: "operators.manage" },
  { key: "content", permission: "content.edit" },
  { key: "security", permission: "account.enrol" },
] as const satisfies readonly { key: string; permission: Permission }[];

export type AdminPageKey = (typeof ADMIN_PAGES)[number]["key"];

/** The pages an operator may open; one who must still enrol two-factor sign-in sees only "security". */
export function pagesFor(operator: Pick<Operator, "role" | "enrolmentRequired"> | undefined) {
  if (!operator) {
    return [];
  }
  return ADMIN_PAGES.filter((p) =>
    operator.enrolmentRequired ? p.key === "security" : can(operator.role, p.permission),
  );
}

/** The i18n key of a page's menu label. */
export const menuLabelKey = (key: AdminPageKey) =>
  key === "kyc"
    ? "kyc.admin.menu"
    : key === "loans"
      ? "loans.admin.menu"
      : key === "proofs"
        ? "nav.proofs"
        : key === "referral" || key === "rewards"
          ? `${key}.admin.menu`
          : key === "support"
            ? "messages.console.title"
            : `admin.menu.${key === "deposit-addresses" ? "depositAddresses" : key}`;
