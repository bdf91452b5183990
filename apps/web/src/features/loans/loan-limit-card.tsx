import { useQuery } from "@tanstack/react-query";
import { Card, Skeleton } from "antd";
import { useTranslation } from "react-i18next";
import { useTRPC } from "../../lib/trpc.ts";
import { useMoneyFormat } from "../assets/assets-format.ts";
import { KeyValue } from "../funding/key-value.tsx";

/** The credit score, the loan limit it gives, the part in use and what is left (USDT). */
export function LoanLimitCard() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const format = useMoneyFormat();
  const limit = useQuery(trpc.loans.limit.queryOptions());
  const usdt = (v: string) => `${format.exact(v, 2, 2)} USDT`;
  return (
    <Card size="small" style={{ marginBottom: 12 }} data-testid="loan-limit">
      {limit.isPending ? (
        <Skeleton active paragraph={{ rows: 2 }} />
      ) : limit.isError ? (
        t("loans.limitUnavailable")
      ) : (
        <>
          <KeyValue label={t("loans.score")}>{limit.data.score}</KeyValue>
          <KeyValue label={t("loans.limit")}>{usdt(limit.data.limitUsdt)}</KeyValue>
          <KeyValue label={t("loans.used")}>{usdt(limit.data.usedUsdt)}</KeyValue>
          <KeyValue label={t("loans.available")}>
            <strong data-testid="loan-available">{usdt(limit.data.availableUsdt)}</strong>
          </KeyValue>
        </>
      )}
    </Card>
  );
}
