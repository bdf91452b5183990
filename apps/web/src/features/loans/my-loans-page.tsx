import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Button } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useAppNavigate } from "../../lib/navigation.tsx";
import { useTRPC } from "../../lib/trpc.ts";
import { Page } from "../common/page.tsx";
import { EmptyState, ErrorState, LoadingState } from "../common/page-states.tsx";
import { LoanRow } from "./loan-row.tsx";

const PAGE_SIZE = 20;

/** /repayment2: my loans, latest first, each with its terms, what is owed and its actions. */
export function MyLoansPage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const go = useAppNavigate();
  const [page, setPage] = useState(1);
  const loans = useQuery(
    trpc.loans.list.queryOptions({ page, page_size: PAGE_SIZE }, { placeholderData: keepPreviousData }),
  );
  return (
    <Page
      title={t("loans.myLoans")}
      width={760}
      extra={
        <Button type="primary" onClick={() => go("/ldcoin")} data-testid="loans-new">
          {t("loans.apply")}
        </Button>
      }
    >
      {loans.isPending ? (
        <LoadingState rows={6} />
      ) : loans.isError ? (
        <ErrorState onRetry={() => void loans.refetch()} />
      ) : loans.data.items.length === 0 ? (
        <EmptyState>{t("loans.noLoans")}</EmptyState>
      ) : (
        <div data-testid="loans-list">
          {loans.data.items.map((l) => (
            <LoanRow key={l.id} loan={l} />
          ))}
          {loans.data.total > PAGE_SIZE && (
            <Button.Group style={{ marginTop: 12 }}>
              <Button disabled={page === 1} onClick={() => setPage(page - 1)}>
                ‹
              </Button>
              <Button disabled={page * PAGE_SIZE >= loans.data.total} onClick={() => setPage(page + 1)}>
                ›
              </Button>
            </Button.Group>
          )}
        </div>
      )}
    </Page>
  );
}
