import type { RiskLevel } from "@northstar/shared/kyc";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Card, Flex, Form, Input, Tag, Typography } from "antd";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { feedback } from "../../lib/feedback.ts";
import { AppLink, useAppNavigate } from "../../lib/navigation.tsx";
import { usePolicy } from "../../lib/policy.ts";
import { useRequestIntent, withRequestKey } from "../../lib/request-key.ts";
import { useTRPC, useTRPCClient } from "../../lib/trpc.ts";
import { amountInput, useMoneyFormat } from "../assets/assets-format.ts";
import { ConfirmModal, SummaryRows } from "../common/confirm-summary-dialog.tsx";
import { SetByPlatform } from "../common/set-by-platform.tsx";
import { KeyValue } from "../funding/key-value.tsx";
import { useCurrencyDecimals } from "../funding/use-currency-decimals.ts";
import { cycleEarnings, ratePercent, rateText } from "./earn-rules.ts";
import type { EarnProduct } from "./earn-types.ts";

/** A product with every term shown before buying, an amount field with the estimate, and the buy confirmation. */
export function ProductCard({
  product: p,
  available,
  risk,
}: {
  product: EarnProduct;
  available: string;
  /** The user's risk level and whether it allows this product; undefined while it loads. */
  risk: { own: RiskLevel; allowed: boolean } | undefined;
}) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const client = useTRPCClient();
  const intent = useRequestIntent();
  const queryClient = useQueryClient();
  const go = useAppNavigate();
  const format = useMoneyFormat();
  const policy = usePolicy();
  const decimalsOf = useCurrencyDecimals();
  const [amount, setAmount] = useState("");
  const [confirming, setConfirming] = useState(false);
  const sending = useRef(false);
  const buy = useMutation({
    ...trpc.earn.buy.mutationOptions(),
    mutationFn: withRequestKey(client.earn.buy.mutate, intent),
  });
  const money = (v: string) => `${format.exact(v, 2, 8)} ${p.currency}`;
  const decimals = decimalsOf(p.currency);
  const low = cycleEarnings(amount || "0", p.rateMin, p.cycleDays, decimals);
  const high = cycleEarnings(amount || "0", p.rateMax, p.cycleDays, decimals);
  const estimate = low === high ? money(low) : `${money(low)} – ${money(high)}`;
  const ruleText =
    p.redemptionRule === "percent"
      ? t("earn.rule.percent", { percent: ratePercent(policy["earn.redemption.percent"]) })
      : t("earn.rule.remaining_days");

  const confirm = () => {
    if (sending.current) {
      return;
    }
    sending.current = true;
    buy.mutate(
      { product_id: p.id, amount },
      {
        onSuccess: () => {
          feedback.success(t("earn.buyOk"));
          setConfirming(false);
          setAmount("");
          void queryClient.invalidateQueries(trpc.earn.pathFilter());
          void queryClient.invalidateQueries(trpc.asset.pathFilter());
          go("/profit_wdtg");
        },
        onError: () => setConfirming(false),
        onSettled: () => {
          sending.current = false;
        },
      },
    );
  };

  return (
    <Card size="small" data-testid="earn-product" data-product={p.name} style={{ marginBottom: 12 }}>
      <Flex justify="space-between" align="baseline" gap={8} wrap>
        <Typography.Text strong style={{ fontSize: 16 }}>
          {p.name}
        </Typography.Text>
        <Tag color="blue" variant="filled" style={{ marginInlineEnd: 0 }}>
          {t(`earn.risk.${p.riskLevel}`)}
        </Tag>
      </Flex>
      <Flex align="baseline" gap={8} style={{ margin: "8px 0" }}>
        <Typography.Text type="success" strong style={{ fontSize: 22 }} data-testid="earn-rate">
          {rateText(p.rateMin, p.rateMax)}
        </Typography.Text>
        <Typography.Text type="secondary">{t("earn.dailyRate")}</Typography.Text>
        <SetByPlatform />
      </Flex>
      <KeyValue label={t("earn.cycle")}>{t("earn.days", { count: p.cycleDays })}</KeyValue>
      <KeyValue label={t("earn.limits")}>
        {format.exact(p.minAmount, 0, 8)} – {format.exact(p.maxAmount, 0, 8)} {p.currency}
      </KeyValue>
      <KeyValue label={t("earn.userLimit")}>
        {format.exact(p.userLimit, 0, 8)} {p.currency} · {p.userCount}×
      </KeyValue>
      <KeyValue label={t("earn.remaining")}>
        {format.exact(p.remaining, 0, 8)} / {format.exact(p.capacity, 0, 8)} {p.currency}
      </KeyValue>
      <Typography.Paragraph type="secondary" style={{ fontSize: 12, margin: "8px 0" }}>
        {ruleText}
      </Typography.Paragraph>
      {risk && !risk.allowed && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 8 }}
          data-testid="earn-risk-blocked"
          title={t("earn.riskBlocked", {
            required: t(`earn.risk.${p.riskLevel}`),
            own: t(`earn.risk.${risk.own}`),
          })}
          action={
            <AppLink to="/fengxian">
              <Button size="small">{t("earn.riskAssess")}</Button>
            </AppLink>
          }
        />
      )}
      <Form
        layout="vertical"
        onFinish={() => setConfirming(true)}
        disabled={buy.isPending || risk?.allowed === false}
      >
        <Form.Item
          label={t("earn.amount")}
          extra={`${t("earn.available")}: ${money(available)}`}
          style={{ marginBottom: 8 }}
        >
          <Input
            value={amount}
            onChange={(e) => setAmount(amountInput(8)(e.target.value))}
            inputMode="decimal"
            autoComplete="off"
            placeholder={t("earn.amountPlaceholder")}
            suffix={p.currency}
            data-testid="earn-amount"
          />
        </Form.Item>
        <KeyValue label={t("earn.estimate")}>
          <span data-testid="earn-estimate">{estimate}</span>
        </KeyValue>
        <Button
          type="primary"
          htmlType="submit"
          block
          disabled={!/[1-9]/.test(amount) || p.remaining === "0" || risk?.allowed !== true}
          style={{ marginTop: 8 }}
          data-testid="earn-buy"
        >
          {p.remaining === "0" ? t("earn.soldOut") : t("earn.buy")}
        </Button>
      </Form>
      <ConfirmModal
        open={confirming}
        title={t("earn.confirmBuyTitle")}
        busy={buy.isPending}
        onOk={confirm}
        onCancel={() => setConfirming(false)}
        okTestId="earn-buy-confirm"
      >
        <SummaryRows
          rows={[
            { key: "product", label: t("earn.admin.product"), value: p.name },
            { key: "amount", label: t("earn.amount"), value: <strong>{money(amount || "0")}</strong> },
            { key: "cycle", label: t("earn.cycle"), value: t("earn.days", { count: p.cycleDays }) },
            { key: "rate", label: t("earn.dailyRate"), value: rateText(p.rateMin, p.rateMax) },
            { key: "estimate", label: t("earn.estimate"), value: estimate },
            { key: "rule", label: t("earn.redeem"), value: ruleText },
          ]}
        />
      </ConfirmModal>
    </Card>
  );
}
