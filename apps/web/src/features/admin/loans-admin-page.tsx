import { useMutation } from "@tanstack/react-query";
import { Button, Tabs } from "antd";
import { useTranslation } from "react-i18next";
import { feedback } from "../../lib/feedback.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { AdminPage } from "./admin-page.tsx";
import { LoanProductsAdmin } from "./loan-products-admin.tsx";
import { LoanWireRepaymentsAdmin } from "./loan-wire-repayments-admin.tsx";
import { LoansAdminTable } from "./loans-admin-table.tsx";

/**
 * Loans in the back office: products, the review queue (approve disburses, reject with a reason),
 * disbursed loans, the overdue list, wire repayments to confirm, all loans. Every change is audited.
 */
export function LoansAdminPage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const run = useMutation(trpc.adminLoans.runOverdue.mutationOptions());
  return (
    <AdminPage
      title={t("loans.admin.title")}
      extra={
        <Button
          loading={run.isPending}
          onClick={() =>
            run.mutate(undefined, {
              onSuccess: (r) =>
                feedback.success(t("loans.admin.ranOverdue", { days: r.days, loans: r.loans })),
            })
          }
          data-testid="loans-admin-run-overdue"
        >
          {t("loans.admin.runOverdue")}
        </Button>
      }
    >
      <Tabs
        destroyOnHidden
        items={[
          {
            key: "queue",
            label: t("loans.admin.queue"),
            children: <LoansAdminTable statuses={["unreviewed"]} review />,
          },
          {
            key: "outstanding",
            label: t("loans.admin.outstanding"),
            children: <LoansAdminTable statuses={["disbursed", "repaying"]} />,
          },
          {
            key: "overdue",
            label: t("loans.admin.overdue"),
            children: <LoansAdminTable statuses={["overdue"]} />,
          },
          { key: "repayments", label: t("loans.admin.repayments"), children: <LoanWireRepaymentsAdmin /> },
          { key: "products", label: t("loans.admin.products"), children: <LoanProductsAdmin /> },
          { key: "all", label: t("loans.admin.all"), children: <LoansAdminTable /> },
        ]}
      />
    </AdminPage>
  );
}
