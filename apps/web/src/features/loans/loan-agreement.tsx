import { Button, Modal, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useMoneyFormat } from "../assets/assets-format.ts";
import { ratePercent } from "./loan-rules.ts";
import type { LoanQuote } from "./loan-types.ts";

/**
 * The loan agreement, readable before its box is ticked: each clause is the platform's own term for
 * this application (the quote the server computed: principal, daily rate, interest, due day, grace
 * days, late fee), so what the user agrees to is what the server will charge.
 */
export function LoanAgreementLink({ quote, days }: { quote: LoanQuote | undefined; days: number }) {
  const { t } = useTranslation();
  const format = useMoneyFormat();
  const [open, setOpen] = useState(false);
  const money = (v: string) => format.exact(v, 2, 2);
  const clauses = quote
    ? [
        t("loans.agreement.principal", { amount: money(quote.amount), currency: quote.currency }),
        t("loans.agreement.interest", {
          rate: ratePercent(quote.dailyRate),
          days,
          interest: money(quote.interest),
          total: money(quote.total),
          currency: quote.currency,
          dueDay: quote.dueDay,
        }),
        t("loans.agreement.late", {
          grace: quote.graceDays,
          lateFee: money(quote.lateFeePerDay),
          overdueRate: ratePercent(quote.overdueRate),
          currency: quote.currency,
        }),
        t("loans.agreement.repay"),
        t("loans.agreement.proofs"),
      ]
    : [];
  return (
    <>
      <Button
        type="link"
        size="small"
        onClick={() => setOpen(true)}
        data-testid="loan-agreement-open"
        style={{ padding: 0 }}
      >
        {t("loans.agreement.read")}
      </Button>
      <Modal
        open={open}
        title={t("loans.agreement.title")}
        onCancel={() => setOpen(false)}
        footer={<Button onClick={() => setOpen(false)}>{t("loans.agreement.close")}</Button>}
        destroyOnHidden
      >
        {quote ? (
          <ol data-testid="loan-agreement" style={{ paddingInlineStart: 20, margin: 0 }}>
            {clauses.map((c) => (
              <li key={c} style={{ marginBottom: 8 }}>
                <Typography.Text>{c}</Typography.Text>
              </li>
            ))}
          </ol>
        ) : (
          <Typography.Text type="secondary" data-testid="loan-agreement">
            {t("loans.agreement.noQuote")}
          </Typography.Text>
        )}
      </Modal>
    </>
  );
}
