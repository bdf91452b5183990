import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Card, Checkbox, Flex, Form, Input, Segmented, Select, Spin } from "antd";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { feedback } from "../../lib/feedback.ts";
import { useAppNavigate } from "../../lib/navigation.tsx";
import { useRequestIntent, withRequestKey } from "../../lib/request-key.ts";
import { useTRPC, useTRPCClient } from "../../lib/trpc.ts";
import { amountInput, useMoneyFormat } from "../assets/assets-format.ts";
import { ConfirmModal, SummaryRows } from "../common/confirm-summary-dialog.tsx";
import { PhotoField } from "../kyc/photo-field.tsx";
import { LoanAgreementLink } from "./loan-agreement.tsx";
import { LoanQuoteRows } from "./loan-quote-rows.tsx";
import { inRange, isLoanAmount, ratePercent } from "./loan-rules.ts";
import type { LoanProduct } from "./loan-types.ts";

const PROOFS = ["credit", "housing", "income", "bank", "id_photo"] as const;

/** The application: product, amount, period, the quote, the proofs, the agreement, then a confirmation. */
export function LoanApplyForm({
  products,
  requiredProofs,
}: {
  products: LoanProduct[];
  requiredProofs: string[];
}) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const client = useTRPCClient();
  const intent = useRequestIntent();
  const queryClient = useQueryClient();
  const go = useAppNavigate();
  const format = useMoneyFormat();
  const [form] = Form.useForm();
  const [productId, setProductId] = useState(products[0]?.id ?? 0);
  const product = products.find((p) => p.id === productId) ?? products[0];
  const [cycle, setCycle] = useState(product?.cycleDays[0] ?? 0);
  const [amount, setAmount] = useState("");
  const [confirming, setConfirming] = useState(false);
  const sending = useRef(false);
  const quoteInput = { product_id: productId, amount, cycle_days: cycle };
  const quote = useQuery({
    ...trpc.loans.quote.queryOptions(quoteInput),
    enabled: product !== undefined && inRange(amount, product) && product.cycleDays.includes(cycle),
    retry: false,
  });
  const apply = useMutation({
    ...trpc.loans.create.mutationOptions(),
    mutationFn: withRequestKey(client.loans.create.mutate, intent),
  });
  if (!product) {
    return null;
  }
  const submit = () => {
    if (sending.current) {
      return;
    }
    sending.current = true;
    const values = form.getFieldsValue() as Record<string, string | undefined>;
    const uploads = Object.fromEntries(
      PROOFS.map((k) => [`${k}_upload_id`, values[`${k}_upload_id`] || undefined]),
    );
    apply.mutate(
      { ...quoteInput, agree: true, ...uploads },
      {
        onSuccess: () => {
          feedback.success(t("loans.applied"));
          setConfirming(false);
          void queryClient.invalidateQueries(trpc.loans.pathFilter());
          go("/repayment2");
        },
        onError: () => setConfirming(false),
        onSettled: () => {
          sending.current = false;
        },
      },
    );
  };
  const money = (v: string) => `${format.exact(v, 2, 2)} ${product.currency}`;
  return (
    <Card size="small">
      <Form form={form} layout="vertical" onFinish={() => setConfirming(true)} disabled={apply.isPending}>
        {products.length > 1 && (
          <Form.Item label={t("loans.product")}>
            <Select
              value={productId}
              onChange={(id) => {
                setProductId(id);
                setCycle(products.find((p) => p.id === id)?.cycleDays[0] ?? 0);
              }}
              options={products.map((p) => ({ value: p.id, label: `${p.name} · ${p.currency}` }))}
              data-testid="loan-product"
            />
          </Form.Item>
        )}
        <Form.Item
          label={t("loans.amount")}
          validateStatus={isLoanAmount(amount) && !inRange(amount, product) ? "warning" : undefined}
          extra={`${t("loans.range")}: ${money(product.minAmount)} – ${money(product.maxAmount)} · ${t("loans.dailyRate")} ${ratePercent(product.dailyRate)}%`}
        >
          <Input
            value={amount}
            onChange={(e) => setAmount(amountInput(2)(e.target.value))}
            inputMode="decimal"
            autoComplete="off"
            suffix={product.currency}
            data-testid="loan-amount"
          />
        </Form.Item>
        <Form.Item label={t("loans.cycle")}>
          <Segmented
            block
            value={cycle}
            onChange={(v) => setCycle(Number(v))}
            options={product.cycleDays.map((d) => ({ value: d, label: t("loans.days", { count: d }) }))}
            data-testid="loan-cycle"
          />
        </Form.Item>
        {quote.isFetching && !quote.data ? (
          <Spin size="small" />
        ) : quote.isError ? (
          <Alert type="warning" showIcon message={quote.error.message} data-testid="loan-quote-error" />
        ) : quote.data ? (
          <LoanQuoteRows quote={quote.data} />
        ) : null}
        <Flex wrap gap={8} style={{ marginTop: 12 }}>
          {PROOFS.map((kind) => (
            <PhotoField
              key={kind}
              name={`${kind}_upload_id`}
              label={t(`loans.proof.${kind}`)}
              testId={`loan-proof-${kind}`}
              optional={!requiredProofs.includes(kind)}
            />
          ))}
        </Flex>
        <Form.Item
          name="agree"
          valuePropName="checked"
          rules={[
            {
              validator: (_, v) =>
                v ? Promise.resolve() : Promise.reject(new Error(t("errors.AGREEMENT_REQUIRED"))),
            },
          ]}
        >
          <Checkbox data-testid="loan-agree">{t("loans.agree")}</Checkbox>
        </Form.Item>
        <div style={{ marginTop: -16, marginBottom: 16 }}>
          <LoanAgreementLink quote={quote.data} days={cycle} />
        </div>
        <Button type="primary" htmlType="submit" block disabled={!quote.data} data-testid="loan-apply">
          {t("loans.apply")}
        </Button>
      </Form>
      <ConfirmModal
        open={confirming}
        title={t("loans.confirmApplyTitle")}
        busy={apply.isPending}
        onOk={submit}
        onCancel={() => setConfirming(false)}
        okTestId="loan-apply-confirm"
      >
        {quote.data && (
          <SummaryRows
            rows={[
              { key: "product", label: t("loans.product"), value: product.name },
              { key: "amount", label: t("loans.amount"), value: <strong>{money(quote.data.amount)}</strong> },
              { key: "cycle", label: t("loans.cycle"), value: t("loans.days", { count: cycle }) },
              { key: "interest", label: t("loans.interest"), value: money(quote.data.interest) },
              { key: "total", label: t("loans.total"), value: <strong>{money(quote.data.total)}</strong> },
              {
                key: "grace",
                label: t("loans.grace"),
                value: t("loans.graceDays", { count: quote.data.graceDays }),
              },
              { key: "late", label: t("loans.lateFeePerDay"), value: money(quote.data.lateFeePerDay) },
            ]}
          />
        )}
      </ConfirmModal>
    </Card>
  );
}
