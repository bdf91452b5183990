import { QueryClientProvider } from "@tanstack/react-query";
import { App, Button, Result } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Navigate, Route, Routes, useLocation, useNavigate } from "react-router";
import { TRPCProvider, useTRPCClient } from "../../lib/trpc.ts";
import { AdminLayout, useOperator } from "./admin-layout.tsx";
import { type AdminPageKey, pagesFor } from "./admin-nav.ts";
import { createAdminQueryClient } from "./admin-query-client.ts";
import { AuditPage } from "./audit-page.tsx";
import { C2cAdminPage } from "./c2c-admin-page.tsx";
import { ChainOperationsPage } from "./chain-operations-page.tsx";
import { ContentAdminPage } from "./content-admin-page.tsx";
import { ContractsAdminPage } from "./contracts-page.tsx";
import { DepositAddressesPage } from "./deposit-addresses-page.tsx";
import { DepositsPage } from "./deposits-page.tsx";
import { EarnAdminPage } from "./earn-admin-page.tsx";
import { InstrumentsPage } from "./instruments-page.tsx";
import { KycReviewPage } from "./kyc-review-page.tsx";
import { LaunchpadAdminPage } from "./launchpad-admin-page.tsx";
import { LedgerPage } from "./ledger-page.tsx";
import { LoansAdminPage } from "./loans-admin-page.tsx";
import { AdminLoginPage } from "./login-page.tsx";
import { operatorTokenStore, useOperatorToken } from "./operator-session.ts";
import { OperatorsPage } from "./operators-page.tsx";
import { OptionsAdminPage } from "./options-page.tsx";
import { PolicyPage } from "./policy-page.tsx";
import { ProofsAdminPage } from "./proofs-admin-page.tsx";
import { ReferralAdminPage } from "./referral-admin-page.tsx";
import { RewardsAdminPage } from "./rewards-admin-page.tsx";
import { SecurityPage } from "./security-page.tsx";
import { SupportConsolePage } from "./support-console-page.tsx";
import { UsersPage } from "./users-page.tsx";
import { WithdrawalsPage } from "./withdrawals-page.tsx";

/**
 * The back office, under /admin, outside the user layout and guards. It shares the app's providers
 * (theme, language, antd feedback, the tRPC client, which sends the operator token) but keeps its
 * own query cache and error rules (see admin-query-client.ts).
 *
 * Honest by construction (DESIGN.md section 1): nothing here sets a price, an outcome or a balance.
 * Operators review deposits and withdrawals, set deposit addresses, the instrument catalogue and
 * policy values, and read users, the ledger and the audit log; the server writes every action to
 * the audit log.
 */
/** antd's App gives the back office's pages their themed modal and message (App.useApp). */
export function AdminApp() {
  return (
    <App message={{ maxCount: 3 }}>
      <AdminRoutes />
    </App>
  );
}

function AdminRoutes() {
  const trpcClient = useTRPCClient();
  const [queryClient] = useState(createAdminQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        <Routes>
          <Route path="/admin/login" element={<AdminLoginPage />} />
          <Route
            path="/admin"
            element={
              <RequireOperator>
                <AdminLayout />
              </RequireOperator>
            }
          >
            <Route index element={<AdminHome />} />
            <Route path="deposits" element={<RoleGate page="deposits" element={<DepositsPage />} />} />
            <Route
              path="withdrawals"
              element={<RoleGate page="withdrawals" element={<WithdrawalsPage />} />}
            />
            <Route
              path="deposit-addresses"
              element={<RoleGate page="deposit-addresses" element={<DepositAddressesPage />} />}
            />
            <Route
              path="instruments"
              element={<RoleGate page="instruments" element={<InstrumentsPage />} />}
            />
            <Route path="chain" element={<RoleGate page="chain" element={<ChainOperationsPage />} />} />
            <Route path="users" element={<RoleGate page="users" element={<UsersPage />} />} />
            <Route path="ledger" element={<RoleGate page="ledger" element={<LedgerPage />} />} />
            <Route path="policy" element={<RoleGate page="policy" element={<PolicyPage />} />} />
            <Route path="audit" element={<RoleGate page="audit" element={<AuditPage />} />} />
            <Route path="kyc" element={<RoleGate page="kyc" element={<KycReviewPage />} />} />
            <Route path="earn" element={<RoleGate page="earn" element={<EarnAdminPage />} />} />
            <Route
              path="launchpad"
              element={<RoleGate page="launchpad" element={<LaunchpadAdminPage />} />}
            />
            <Route path="options" element={<RoleGate page="options" element={<OptionsAdminPage />} />} />
            <Route path="proofs" element={<RoleGate page="proofs" element={<ProofsAdminPage />} />} />
            <Route path="loans" element={<RoleGate page="loans" element={<LoansAdminPage />} />} />
            <Route path="referral" element={<RoleGate page="referral" element={<ReferralAdminPage />} />} />
            <Route path="rewards" element={<RoleGate page="rewards" element={<RewardsAdminPage />} />} />
            <Route path="c2c" element={<RoleGate page="c2c" element={<C2cAdminPage />} />} />
            <Route
              path="contracts"
              element={<RoleGate page="contracts" element={<ContractsAdminPage />} />}
            />
            <Route path="operators" element={<RoleGate page="operators" element={<OperatorsPage />} />} />
            <Route path="security" element={<RoleGate page="security" element={<SecurityPage />} />} />
            <Route path="support" element={<RoleGate page="support" element={<SupportConsolePage />} />} />
            <Route path="content" element={<RoleGate page="content" element={<ContentAdminPage />} />} />
            <Route path="*" element={<AdminNotFound />} />
          </Route>
        </Routes>
      </TRPCProvider>
    </QueryClientProvider>
  );
}

/** Every /admin page needs an operator token; without one the operator signs in first. */
function RequireOperator({ children }: { children: React.ReactNode }) {
  const token = useOperatorToken();
  const location = useLocation();
  if (!token) {
    // After signing out the operator starts afresh; after an expiry they come back to this page.
    const back =
      operatorTokenStore.signedOut() || location.pathname === "/admin"
        ? ""
        : `?redirect=${encodeURIComponent(location.pathname + location.search)}`;
    return <Navigate to={`/admin/login${back}`} replace />;
  }
  return children;
}

/** /admin opens the first page the operator's role may see. */
function AdminHome() {
  const operator = useOperator();
  const first = pagesFor(operator)[0];
  return first ? <Navigate to={`/admin/${first.key}`} replace /> : <Forbidden />;
}

function RoleGate({ page, element }: { page: AdminPageKey; element: React.ReactElement }) {
  const operator = useOperator();
  if (operator.enrolmentRequired && page !== "security") {
    return <Navigate to="/admin/security" replace />;
  }
  return pagesFor(operator).some((p) => p.key === page) ? element : <Forbidden />;
}

function Forbidden() {
  const { t } = useTranslation();
  return <Result status="403" title={t("errors.FORBIDDEN")} subTitle={t("admin.forbiddenPage")} />;
}

function AdminNotFound() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Result
      status="404"
      title="404"
      subTitle={t("common.notFound")}
      extra={
        <Button type="primary" onClick={() => void navigate("/admin")}>
          {t("admin.backToDashboard")}
        </Button>
      }
    />
  );
}
