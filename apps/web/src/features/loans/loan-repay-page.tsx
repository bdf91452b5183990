import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { useTRPC } from "../../lib/trpc.ts";
import { Page } from "../common/page.tsx";
import { EmptyState, ErrorState, LoadingState } from "../common/page-states.tsx";
import { LoanRepayForm } from "./loan-repay-form.tsx";
import { OUTSTANDING } from "./loan-rules.ts";

/** /repaymentNew?id=…: repay one of my loans, from the balance or by wire with a proof. */
export function LoanRepayPage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const id = Number(useSearchParams()[0].get("id"));
  const valid = Number.isInteger(id) && id > 0;
  const loan = useQuery({ ...trpc.loans.get.queryOptions({ loan_id: valid ? id : 1 }), enabled: valid });
  return (
    <Page title={t("loans.repayTitle")} width={640}>
      {!valid ? (
        <EmptyState>{t("loans.noLoan")}</EmptyState>
      ) : loan.isPending ? (
        <LoadingState />
      ) : loan.isError ? (
        <ErrorState onRetry={() => void loan.refetch()} />
      ) : !OUTSTANDING.has(loan.data.status) ? (
        <EmptyState>{t("loans.nothingOwed")}</EmptyState>
      ) : (
        <LoanRepayForm loan={loan.data} />
      )}
    </Page>
  );
}
