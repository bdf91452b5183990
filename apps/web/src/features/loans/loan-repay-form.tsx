import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Card, Form, Input, Segmented } from "antd";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { feedback } from "../../lib/feedback.ts";
import { useAppNavigate } from "../../lib/navigation.tsx";
import { usePolicy } from "../../lib/policy.ts";
import { useRequestIntent, withRequestKey } from "../../lib/request-key.ts";
import { useTRPC, useTRPCClient } from "../../lib/trpc.ts";
import { useAssets } from "../assets/assets-data.ts";
import { amountInput, useMoneyFormat } from "../assets/assets-format.ts";
import { ConfirmModal, SummaryRows } from "../common/confirm-summary-dialog.tsx";
import { KeyValue } from "../funding/key-value.tsx";
import { ProofUpload } from "../funding/proof-upload.tsx";
import { isLoanAmount } from "./loan-rules.ts";
import { LoanStatusTag } from "./loan-status-tag.tsx";
import type { LoanDetail } from "./loan-types.ts";

/**
 * What is owed (late fees, interest, principal), the amount (all by default, or part), the way
 * (balance or wire with its proof), and the confirmation before the money moves.
 */
export function LoanRepayForm({ loan }: { loan: LoanDetail }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const client = useTRPCClient();
  const intent = useRequestIntent();
  const queryClient = useQueryClient();
  const go = useAppNavigate();
  const format = useMoneyFormat();
  const assets = useAssets();
  // Where to wire: the platform's account, published by an operator (policy); none, no wire.
  const account = usePolicy()["loans.wire.account"];
  const wireOffered = account.accountNumber !== "";
  // A wire already sent waits for an operator: say so rather than offer the same form again.
  const pendingWire = loan.repayments.find((r) => r.method === "wire" && r.status === "pending");
  const [amount, setAmount] = useState(loan.owed.total);
  const [method, setMethod] = useState<"balance" | "wire">("balance");
  const [proof, setProof] = useState<string | undefined>();
  const [proofError, setProofError] = useState<string | undefined>();
  const [confirming, setConfirming] = useState(false);
  const sending = useRef(false);
  const repay = useMutation({
    ...trpc.loans.repay.mutationOptions(),
    mutationFn: withRequestKey(client.loans.repay.mutate, intent),
  });
  const wire = useMutation({
    ...trpc.loans.repayByWire.mutationOptions(),
    mutationFn: withRequestKey(client.loans.repayByWire.mutate, intent),
  });
  const busy = repay.isPending || wire.isPending;
  const money = (v: string) => `${format.exact(v, 2, 2)} ${loan.currency}`;
  const available =
    assets.data?.rows.find((r) => r.wallet === "exchange" && r.currency === loan.currency)?.available ?? "0";

  const send = () => {
    if (sending.current) {
      return;
    }
    sending.current = true;
    const options = {
      onSuccess: () => {
        feedback.success(t(method === "wire" ? "loans.wireSubmitted" : "loans.repaid"));
        setConfirming(false);
        void queryClient.invalidateQueries(trpc.loans.pathFilter());
        void queryClient.invalidateQueries(trpc.asset.pathFilter());
        go("/repayment2");
      },
      onError: () => setConfirming(false),
      onSettled: () => {
        sending.current = false;
      },
    };
    if (method === "wire" && proof) {
      wire.mutate({ loan_id: loan.id, amount, upload_id: proof }, options);
    } else {
      repay.mutate({ loan_id: loan.id, amount }, options);
    }
  };

  return (
    <Card size="small" data-testid="loan-repay">
      <KeyValue label={t("loans.contractNo")}>{loan.contractNo}</KeyValue>
      <KeyValue label={t("loans.status.label")}>
        <LoanStatusTag status={loan.status} />
      </KeyValue>
      <KeyValue label={t("loans.dueDay")}>{loan.dueDay}</KeyValue>
      <KeyValue label={t("loans.lateFees")}>{money(loan.owed.lateFees)}</KeyValue>
      <KeyValue label={t("loans.interest")}>{money(loan.owed.interest)}</KeyValue>
      <KeyValue label={t("loans.principal")}>{money(loan.owed.principal)}</KeyValue>
      <KeyValue label={t("loans.owed")}>
        <strong data-testid="loan-repay-owed">{money(loan.owed.total)}</strong>
      </KeyValue>
      {pendingWire && (
        <Alert
          type="info"
          showIcon
          style={{ marginTop: 12 }}
          data-testid="loan-wire-pending"
          title={t("loans.wirePending", { amount: money(pendingWire.amount) })}
        />
      )}
      <Form layout="vertical" onFinish={() => setConfirming(true)} disabled={busy} style={{ marginTop: 12 }}>
        <Form.Item
          label={t("loans.method.label")}
          extra={wireOffered ? undefined : t("loans.wireNotOffered")}
        >
          <Segmented
            block
            value={method}
            onChange={(v) => setMethod(v as "balance" | "wire")}
            options={[
              { value: "balance", label: t("loans.method.balance") },
              { value: "wire", label: t("loans.method.wire"), disabled: !wireOffered || !!pendingWire },
            ]}
            data-testid="loan-repay-method"
          />
        </Form.Item>
        {method === "wire" && (
          <div data-testid="loan-wire-account" style={{ marginBottom: 12 }}>
            <KeyValue label={t("loans.wireTo.bankName")}>{account.bankName}</KeyValue>
            <KeyValue label={t("loans.wireTo.accountName")}>{account.accountName}</KeyValue>
            <KeyValue label={t("loans.wireTo.accountNumber")}>{account.accountNumber}</KeyValue>
            {account.swift && <KeyValue label={t("loans.wireTo.swift")}>{account.swift}</KeyValue>}
            <KeyValue label={t("loans.wireTo.reference")}>{loan.contractNo}</KeyValue>
          </div>
        )}
        <Form.Item
          label={t("loans.repayAmount")}
          extra={method === "balance" ? `${t("loans.balance")}: ${money(available)}` : t("loans.wireHint")}
        >
          <Input
            value={amount}
            onChange={(e) => setAmount(amountInput(2)(e.target.value))}
            inputMode="decimal"
            autoComplete="off"
            suffix={loan.currency}
            data-testid="loan-repay-amount"
          />
        </Form.Item>
        {method === "wire" && (
          <Form.Item
            label={t("loans.wireProof")}
            validateStatus={proofError ? "error" : undefined}
            help={proofError}
          >
            <ProofUpload
              value={proof}
              onChange={(id) => {
                setProof(id);
                setProofError(undefined);
              }}
              onReject={setProofError}
              testId="loan-wire-proof"
            />
          </Form.Item>
        )}
        <Button
          type="primary"
          htmlType="submit"
          block
          disabled={!isLoanAmount(amount) || (method === "wire" && !proof)}
          data-testid="loan-repay-submit"
        >
          {t("loans.repay")}
        </Button>
      </Form>
      <ConfirmModal
        open={confirming}
        title={t("loans.confirmRepayTitle")}
        busy={busy}
        onOk={send}
        onCancel={() => setConfirming(false)}
        okTestId="loan-repay-confirm"
      >
        <SummaryRows
          rows={[
            { key: "contract", label: t("loans.contractNo"), value: loan.contractNo },
            { key: "amount", label: t("loans.repayAmount"), value: <strong>{money(amount || "0")}</strong> },
            { key: "method", label: t("loans.method.label"), value: t(`loans.method.${method}`) },
            { key: "owed", label: t("loans.owed"), value: money(loan.owed.total) },
          ]}
        />
      </ConfirmModal>
    </Card>
  );
}
