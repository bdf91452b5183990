import type { OperatorRole } from "./admin-types.ts";

/**
 * The back office's pages and the operator roles that may open them: the same roles the API's
 * procedures accept (apps/api/src/trpc/routers/admin/router.ts), so the menu offers nothing the
 * server would refuse. The server still checks every call.
 */
export const ADMIN_PAGES = [
  { key: "deposits", roles: ["admin", "finance"] },
  { key: "withdrawals", roles: ["admin", "finance"] },
  { key: "deposit-addresses", roles: ["admin", "finance"] },
  { key: "instruments", roles: ["admin"] },
  { key: "users", roles: ["admin", "finance", "support", "content"] },
  { key: "ledger", roles: ["admin", "finance"] },
  { key: "policy", roles: ["admin", "finance"] },
  { key: "audit", roles: ["admin"] },
  { key: "kyc", roles: ["admin", "compliance"] },
  { key: "earn", roles: ["admin", "finance"] },
  { key: "launchpad", roles: ["admin", "finance"] },
  { key: "options", roles: ["admin", "finance"] },
  { key: "loans", roles: ["admin", "finance"] },
  { key: "c2c", roles: ["admin", "finance"] },
  { key: "contracts", roles: ["admin", "finance"] },
  { key: "proofs", roles: ["admin", "finance"] },
  { key: "support", roles: ["admin", "support"] },
] as const satisfies readonly { key: string; roles: readonly OperatorRole[] }[];

export type AdminPageKey = (typeof ADMIN_PAGES)[number]["key"];

export function pagesFor(role: OperatorRole | undefined) {
  return ADMIN_PAGES.filter((p) => role !== undefined && (p.roles as readonly OperatorRole[]).includes(role));
}

/** The i18n key of a page's menu label. */
export const menuLabelKey = (key: AdminPageKey) =>
  key === "kyc"
    ? "kyc.admin.menu"
    : key === "loans"
      ? "loans.admin.menu"
      : key === "proofs"
        ? "nav.proofs"
        : key === "support"
          ? "messages.console.title"
          : `admin.menu.${key === "deposit-addresses" ? "depositAddresses" : key}`;
