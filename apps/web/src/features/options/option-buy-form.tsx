import type { TOptionDirection } from "@northstar/shared/contracts/options";
import { MoneyDecimal } from "@northstar/shared/money";
import { optionFee, optionWinPayout } from "@northstar/shared/options";
import { Alert, Button, Card, Flex, Input, Radio, Typography, theme } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { feedback } from "../../lib/feedback.ts";
import { AppLink } from "../../lib/navigation.tsx";
import { usePolicy } from "../../lib/policy.ts";
import { useIsLoggedIn } from "../../lib/session.ts";
import { amountInput, NUMERIC_STYLE, useMoneyFormat } from "../assets/assets-format.ts";
import { ConfirmModal, SummaryRows } from "../common/confirm-summary-dialog.tsx";
import { LoginPrompt } from "../common/login-prompt.tsx";
import { useCurrencyDecimals } from "../funding/use-currency-decimals.ts";
import { percent, periodParts } from "./option-period.ts";
import { type OptionProduct, useBuyOption, useOptionBalance } from "./options-data.ts";

const PRESETS = ["10", "50", "100", "500"];

/**
 * Period picker (each with its payout and fee), amount with presets, and the up and down buttons.
 * A purchase is confirmed first with what it costs and what a win and a tie pay.
 */
export function OptionBuyForm({ product }: { product: OptionProduct }) {
  const { t } = useTranslation();
  const policy = usePolicy();
  const { token } = theme.useToken();
  const format = useMoneyFormat();
  const loggedIn = useIsLoggedIn();
  const balance = useOptionBalance();
  const buy = useBuyOption();
  const decimalsOf = useCurrencyDecimals();
  const [seconds, setSeconds] = useState(product.periods[0]?.seconds ?? 0);
  const [amount, setAmount] = useState("");
  const [pending, setPending] = useState<TOptionDirection | null>(null);
  const period = product.periods.find((p) => p.seconds === seconds) ?? product.periods[0];
  if (!period) {
    return null;
  }
  // The server rounds the fee up and a win's profit down to USDT's decimals; the preview does the same.
  const decimals = decimalsOf("USDT");
  const valid =
    decimals !== undefined &&
    /^\d+(\.\d+)?$/.test(amount) &&
    new MoneyDecimal(amount).gt(0) &&
    new MoneyDecimal(amount).decimalPlaces() <= decimals;
  const fee = valid ? optionFee(amount, period.fee_rate, decimals) : "0";
  const total = valid ? new MoneyDecimal(amount).plus(fee).toFixed() : "0";
  const winPays = valid ? optionWinPayout(amount, period.payout_rate, decimals) : "0";
  const usdt = (v: string) => `${format.exact(v, 2, 8)} USDT`;

  const confirm = () => {
    if (!pending) {
      return;
    }
    buy.mutate(
      { symbol: product.symbol, direction: pending, amount, period_seconds: period.seconds },
      {
        onSuccess: () => {
          setPending(null);
          feedback.success(t("options.bought"));
        },
        onError: () => setPending(null),
      },
    );
  };

  return (
    <Card size="small" title={product.name} data-testid="option-buy-form">
      <Flex vertical gap={12}>
        <div>
          <Typography.Text type="secondary">{t("options.period")}</Typography.Text>
          <Radio.Group
            value={period.seconds}
            onChange={(e) => setSeconds(Number(e.target.value))}
            style={{
              display: "grid",
              gridTemplateColumns: "repeat(auto-fill, minmax(96px, 1fr))",
              gap: 8,
              marginTop: 4,
            }}
          >
            {product.periods.map((p) => {
              const parts = periodParts(p.seconds);
              return (
                <Radio.Button
                  key={p.seconds}
                  value={p.seconds}
                  style={{
                    height: "auto",
                    lineHeight: 1.4,
                    padding: "4px 8px",
                    textAlign: "center",
                    borderRadius: 6,
                  }}
                >
                  <div style={{ fontWeight: 600 }} data-testid={`option-period-${p.seconds}`}>
                    {t(`options.${parts.unit}`, { n: parts.n })}
                  </div>
                  <div style={{ fontSize: 12 }}>
                    {t("options.payoutRate")} {percent(p.payout_rate)}%
                  </div>
                  <div style={{ fontSize: 12, color: token.colorTextSecondary }}>
                    {t("options.feeRate")} {percent(p.fee_rate)}%
                  </div>
                </Radio.Button>
              );
            })}
          </Radio.Group>
        </div>
        <div>
          <Flex justify="space-between" wrap gap={4}>
            <Typography.Text type="secondary">{t("options.amount")}</Typography.Text>
            {loggedIn && (
              <Typography.Text type="secondary" style={NUMERIC_STYLE} data-testid="option-available">
                {t("options.available")} {balance.data ? usdt(balance.data.available) : "—"}{" "}
                <AppLink to="/transfer">{t("options.transfer")}</AppLink>
              </Typography.Text>
            )}
          </Flex>
          <Input
            inputMode="decimal"
            value={amount}
            placeholder={t("options.amountPlaceholder")}
            onChange={(e) => setAmount(amountInput(8)(e.target.value))}
            suffix="USDT"
            data-testid="option-amount"
            style={{ marginTop: 4 }}
          />
          <Flex gap={8} wrap style={{ marginTop: 8 }}>
            {PRESETS.map((v) => (
              <Button key={v} size="small" onClick={() => setAmount(v)} data-testid={`option-preset-${v}`}>
                {v}
              </Button>
            ))}
          </Flex>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t("options.limits", {
              min: format.exact(period.min, 0, 8),
              max: format.exact(period.max, 0, 8),
            })}
          </Typography.Text>
        </div>
        {!product.open && <Alert type="warning" showIcon title={t("options.marketClosed")} />}
        {product.open && !period.expiry_open && (
          <Alert
            type="warning"
            showIcon
            title={t("errors.OPTION_EXPIRY_MARKET_CLOSED")}
            data-testid="option-expiry-closed"
          />
        )}
        {loggedIn ? (
          <Flex gap={12}>
            {(["up", "down"] as const).map((direction) => (
              <Button
                key={direction}
                type="primary"
                size="large"
                block
                disabled={!valid || !product.open || !period.expiry_open}
                onClick={() => setPending(direction)}
                data-testid={`option-buy-${direction}`}
                style={{ background: direction === "up" ? token.colorSuccess : token.colorError }}
              >
                {t(direction === "up" ? "options.buyUp" : "options.buyDown")}
              </Button>
            ))}
          </Flex>
        ) : (
          <LoginPrompt />
        )}
      </Flex>
      <ConfirmModal
        open={pending !== null}
        title={t("options.confirmTitle")}
        busy={buy.isPending}
        onOk={confirm}
        onCancel={() => setPending(null)}
        okTestId="option-confirm"
      >
        <SummaryRows
          rows={[
            { key: "instrument", label: t("options.instrument"), value: product.symbol },
            {
              key: "direction",
              label: t("options.direction"),
              value: pending ? t(`options.${pending}`) : "",
            },
            {
              key: "period",
              label: t("options.period"),
              value: t(`options.${periodParts(period.seconds).unit}`, { n: periodParts(period.seconds).n }),
            },
            { key: "amount", label: t("options.amount"), value: usdt(valid ? amount : "0") },
            { key: "fee", label: t("options.fee"), value: usdt(fee) },
            { key: "total", label: t("options.total"), value: usdt(total) },
            { key: "win", label: t("options.ifWin"), value: usdt(winPays) },
            {
              key: "tie",
              label: t("options.ifTie"),
              value: t(product.tie === "refund" ? "options.tieRefund" : "options.tieLoss"),
            },
            {
              key: "noPrice",
              label: t("options.ifNoPrice"),
              value: t("options.noPriceRefund", { seconds: policy["options.settlement.maxGapSeconds"] }),
            },
          ]}
        />
      </ConfirmModal>
    </Card>
  );
}
