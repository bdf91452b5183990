import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Button, Flex, Popconfirm, Typography, theme } from "antd";
import { useTranslation } from "react-i18next";
import { feedback } from "../../lib/feedback.ts";
import { useAppNavigate } from "../../lib/navigation.tsx";
import { useTRPC } from "../../lib/trpc.ts";
import { useMoneyFormat } from "../assets/assets-format.ts";
import { KeyValue } from "../funding/key-value.tsx";
import { useFormatDateTime } from "../funding/use-format-date-time.ts";
import { OUTSTANDING, ratePercent } from "./loan-rules.ts";
import { LoanStatusTag } from "./loan-status-tag.tsx";
import type { Loan } from "./loan-types.ts";

/** One loan with every field of SPEC section 3 and its actions: withdraw, reapply, repay. */
export function LoanRow({ loan }: { loan: Loan }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const go = useAppNavigate();
  const format = useMoneyFormat();
  const formatDateTime = useFormatDateTime();
  const money = (v: string) => `${format.exact(v, 2, 2)} ${loan.currency}`;
  const done = (key: string) => () => {
    feedback.success(t(key));
    void queryClient.invalidateQueries(trpc.loans.pathFilter());
  };
  const withdraw = useMutation({
    ...trpc.loans.withdraw.mutationOptions(),
    onSuccess: done("loans.withdrawn"),
  });
  const reapply = useMutation({
    ...trpc.loans.reapply.mutationOptions(),
    onSuccess: done("loans.reapplied"),
  });
  return (
    <Flex
      vertical
      gap={6}
      className="ns-record"
      style={{ paddingBlock: 14 }}
      data-testid="loan"
      data-status={loan.status}
    >
      <Flex justify="space-between" align="flex-start" gap={12}>
        <Flex vertical gap={2} style={{ minWidth: 0 }}>
          <Typography.Text strong>{loan.lender}</Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
            {loan.contractNo} · {formatDateTime(loan.appliedAt)}
          </Typography.Text>
        </Flex>
        <Flex vertical align="flex-end" gap={4} style={{ flex: "none" }}>
          <Typography.Text strong className="ns-num">
            {money(loan.amount)}
          </Typography.Text>
          <LoanStatusTag status={loan.status} />
        </Flex>
      </Flex>
      <KeyValue label={t("loans.cycle")}>{t("loans.days", { count: loan.cycleDays })}</KeyValue>
      <KeyValue label={t("loans.dailyRate")}>{ratePercent(loan.dailyRate)}%</KeyValue>
      <KeyValue label={t("loans.overdueRate")}>{ratePercent(loan.overdueRate)}%</KeyValue>
      <KeyValue label={t("loans.interest")}>{money(loan.interest)}</KeyValue>
      <KeyValue label={t("loans.total")}>{money(loan.total)}</KeyValue>
      {loan.dueDay && <KeyValue label={t("loans.dueDay")}>{loan.dueDay}</KeyValue>}
      {loan.overdueDays > 0 && (
        <>
          <KeyValue label={t("loans.lateFees")}>
            <Typography.Text type="danger">{money(loan.lateFees)}</Typography.Text>
          </KeyValue>
          <KeyValue label={t("loans.overdueDays")}>{loan.overdueDays}</KeyValue>
        </>
      )}
      {OUTSTANDING.has(loan.status) && (
        <KeyValue label={t("loans.owed")}>
          <strong data-testid="loan-owed">{money(loan.owed.total)}</strong>
        </KeyValue>
      )}
      {loan.rejectReason && (
        <KeyValue label={t("loans.rejectReason")}>
          <Typography.Text type="danger">{loan.rejectReason}</Typography.Text>
        </KeyValue>
      )}
      <Flex gap={8} justify="flex-end" wrap>
        {loan.status === "unreviewed" && (
          <Popconfirm
            title={t("loans.withdrawConfirm")}
            onConfirm={() => withdraw.mutate({ loan_id: loan.id })}
          >
            <Button size="small" loading={withdraw.isPending} data-testid="loan-withdraw">
              {t("loans.withdraw")}
            </Button>
          </Popconfirm>
        )}
        {(loan.status === "rejected" || loan.status === "withdrawn") && (
          <Popconfirm
            title={t("loans.reapplyConfirm")}
            onConfirm={() => reapply.mutate({ loan_id: loan.id, agree: true })}
          >
            <Button size="small" loading={reapply.isPending} data-testid="loan-reapply">
              {t("loans.reapply")}
            </Button>
          </Popconfirm>
        )}
        {OUTSTANDING.has(loan.status) && (
          <Button
            type="primary"
            size="small"
            onClick={() => go(`/repaymentNew?id=${loan.id}`)}
            data-testid="loan-repay"
          >
            {t("loans.repay")}
          </Button>
        )}
      </Flex>
    </Flex>
  );
}
