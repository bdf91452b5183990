import { useTranslation } from "react-i18next";
import { useMoneyFormat } from "../assets/assets-format.ts";
import { KeyValue } from "../funding/key-value.tsx";
import { ratePercent } from "./loan-rules.ts";
import type { LoanQuote } from "./loan-types.ts";

/** Every term the user sees before applying: interest, total, due day, grace and the late fee. */
export function LoanQuoteRows({ quote }: { quote: LoanQuote }) {
  const { t } = useTranslation();
  const format = useMoneyFormat();
  const money = (v: string) => `${format.exact(v, 2, 2)} ${quote.currency}`;
  return (
    <div data-testid="loan-quote">
      <KeyValue label={t("loans.dailyRate")}>{ratePercent(quote.dailyRate)}%</KeyValue>
      <KeyValue label={t("loans.interest")}>
        <span data-testid="loan-quote-interest">{money(quote.interest)}</span>
      </KeyValue>
      <KeyValue label={t("loans.total")}>
        <strong data-testid="loan-quote-total">{money(quote.total)}</strong>
      </KeyValue>
      <KeyValue label={t("loans.dueDay")}>
        <span data-testid="loan-quote-due">{quote.dueDay}</span>
      </KeyValue>
      <KeyValue label={t("loans.grace")}>{t("loans.graceDays", { count: quote.graceDays })}</KeyValue>
      <KeyValue label={t("loans.overdueRate")}>{ratePercent(quote.overdueRate)}%</KeyValue>
      <KeyValue label={t("loans.lateFeePerDay")}>{money(quote.lateFeePerDay)}</KeyValue>
    </div>
  );
}
