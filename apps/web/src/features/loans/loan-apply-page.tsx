import { useQuery } from "@tanstack/react-query";
import { Button } from "antd";
import { useTranslation } from "react-i18next";
import { useAppNavigate } from "../../lib/navigation.tsx";
import { useTRPC } from "../../lib/trpc.ts";
import { Page } from "../common/page.tsx";
import { EmptyState, ErrorState, LoadingState } from "../common/page-states.tsx";
import { GatePrompt } from "../kyc/gate-prompt.tsx";
import { useKycStatus } from "../kyc/use-kyc-status.ts";
import { LoanApplyForm } from "./loan-apply-form.tsx";
import { LoanLimitCard } from "./loan-limit-card.tsx";

/**
 * /ldcoin: the loan application. Needs primary and advanced KYC (a prompt leads to the missing
 * step); shows the credit limit, then the form with the quote before applying.
 */
export function LoanApplyPage() {
  const { t } = useTranslation();
  const go = useAppNavigate();
  const status = useKycStatus();
  const trpc = useTRPC();
  const allowed = status.data?.gates.loans.allowed === true;
  const products = useQuery({ ...trpc.loans.products.queryOptions(), enabled: allowed });
  return (
    <Page
      title={t("loans.title")}
      width={720}
      extra={
        <Button onClick={() => go("/repayment2")} data-testid="loans-my">
          {t("loans.myLoans")}
        </Button>
      }
    >
      {status.isPending ? (
        <LoadingState />
      ) : status.isError ? (
        <ErrorState onRetry={() => void status.refetch()} />
      ) : !allowed ? (
        <GatePrompt next={status.data.gates.loans.next ?? "primary"} />
      ) : products.isPending ? (
        <LoadingState rows={6} />
      ) : products.isError ? (
        <ErrorState onRetry={() => void products.refetch()} />
      ) : products.data.products.length === 0 ? (
        <EmptyState>{t("loans.noProducts")}</EmptyState>
      ) : (
        <>
          <LoanLimitCard />
          <LoanApplyForm products={products.data.products} requiredProofs={products.data.requiredProofs} />
        </>
      )}
    </Page>
  );
}
