import type { ContractSide } from "@northstar/shared/contract-math";
import { ratePercent } from "@northstar/shared/format";
import { Alert, Button, Card, Flex, Input, Radio, Segmented, Typography, theme } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { feedback } from "../../lib/feedback.ts";
import { useTicker } from "../../lib/market-socket.ts";
import { AppLink } from "../../lib/navigation.tsx";
import { usePolicy } from "../../lib/policy.ts";
import { useIsLoggedIn } from "../../lib/session.ts";
import { amountInput, NUMERIC_STYLE, useMoneyFormat } from "../assets/assets-format.ts";
import { ConfirmModal, SummaryRows } from "../common/confirm-summary-dialog.tsx";
import { LoginPrompt } from "../common/login-prompt.tsx";
import { preTradeFigures } from "./contract-figures.ts";
import { type ContractProduct, useContractBalance, useOpenContract } from "./contracts-data.ts";

/**
 * Long or short by market or limit, with lots, a leverage level of the product, optional TP and
 * SL; the margin, fee, estimated liquidation price and overnight interest are shown before the
 * order is confirmed, as are the rules that can close or charge the position.
 */
export function ContractOrderForm({ product }: { product: ContractProduct }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const format = useMoneyFormat();
  const loggedIn = useIsLoggedIn();
  const balance = useContractBalance();
  const policy = usePolicy();
  const open = useOpenContract();
  const ticker = useTicker(product.symbol);
  const [orderType, setOrderType] = useState<"market" | "limit">("market");
  const [lots, setLots] = useState(product.min_lots);
  const [leverage, setLeverage] = useState(product.leverage.includes(10) ? 10 : (product.leverage[0] ?? 1));
  const [limitPrice, setLimitPrice] = useState("");
  const [takeProfit, setTakeProfit] = useState("");
  const [stopLoss, setStopLoss] = useState("");
  const [pending, setPending] = useState<ContractSide | null>(null);
  const price = orderType === "limit" ? limitPrice : (ticker?.p ?? "");
  const usdt = (v: string) => `${format.exact(v, 2, 8)} USDT`;
  const figures = (side: ContractSide) => preTradeFigures(product, side, price, lots, leverage);
  const shown = figures(pending ?? "long");
  const hour = policy["contracts.overnightHourUtc"];

  const confirm = () => {
    if (!pending) {
      return;
    }
    open.mutate(
      {
        symbol: product.symbol,
        side: pending,
        order_type: orderType,
        price: orderType === "limit" ? limitPrice : undefined,
        lots,
        leverage,
        take_profit: takeProfit || undefined,
        stop_loss: stopLoss || undefined,
      },
      {
        onSuccess: () => {
          setPending(null);
          feedback.success(t("contracts.opened"));
        },
        onError: () => setPending(null),
      },
    );
  };
  const field = (label: string, value: string, set: (v: string) => void, testId: string, hint?: string) => (
    <div>
      <Typography.Text type="secondary">{label}</Typography.Text>
      <Input
        inputMode="decimal"
        value={value}
        placeholder={hint}
        onChange={(e) => set(amountInput(8)(e.target.value))}
        data-testid={testId}
        style={{ marginTop: 4 }}
      />
    </div>
  );

  return (
    <Card size="small" title={product.name} data-testid="contract-order-form">
      <Flex vertical gap={10}>
        <Segmented
          block
          value={orderType}
          onChange={(v) => setOrderType(v as "market" | "limit")}
          options={[
            { value: "market", label: t("contracts.market") },
            { value: "limit", label: t("contracts.limit") },
          ]}
          data-testid="contract-order-type"
        />
        {orderType === "limit" &&
          field(t("contracts.limitPrice"), limitPrice, setLimitPrice, "contract-limit-price")}
        {field(
          t("contracts.lots"),
          lots,
          setLots,
          "contract-lots",
          t("contracts.lotRange", { min: product.min_lots, max: product.max_lots, step: product.lot_step }),
        )}
        <div>
          <Typography.Text type="secondary">{t("contracts.leverage")}</Typography.Text>
          <Radio.Group
            value={leverage}
            onChange={(e) => setLeverage(Number(e.target.value))}
            optionType="button"
            size="small"
            style={{ display: "flex", flexWrap: "wrap", gap: 4, marginTop: 4 }}
            options={product.leverage.map((l) => ({
              value: l,
              label: <span data-testid={`contract-leverage-${l}`}>{l}x</span>,
            }))}
          />
        </div>
        <Flex gap={8}>
          {field(
            t("contracts.takeProfit"),
            takeProfit,
            setTakeProfit,
            "contract-tp",
            t("contracts.optional"),
          )}
          {field(t("contracts.stopLoss"), stopLoss, setStopLoss, "contract-sl", t("contracts.optional"))}
        </Flex>
        {loggedIn && (
          <Typography.Text type="secondary" style={NUMERIC_STYLE} data-testid="contract-available">
            {t("contracts.available")} {balance.data ? usdt(balance.data.available) : "—"}{" "}
            <AppLink to="/transfer">{t("contracts.transfer")}</AppLink>
          </Typography.Text>
        )}
        <SummaryRows
          rows={[
            { key: "margin", label: t("contracts.margin"), value: shown ? usdt(shown.margin) : "—" },
            { key: "fee", label: t("contracts.fee"), value: shown ? usdt(shown.fee) : "—" },
            {
              key: "overnight",
              label: t("contracts.overnightRate"),
              value: shown
                ? t("contracts.overnightEstimate", {
                    rate: shown.overnightPercent,
                    amount: format.exact(shown.overnight, 2, 8),
                  })
                : "—",
            },
          ]}
        />
        <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="contract-rules">
          {t("contracts.rules", {
            rate: ratePercent(product.maintenance_rate),
            fee: ratePercent(product.fee_rate),
            hour: String(hour).padStart(2, "0"),
          })}
        </Typography.Text>
        {!product.open && <Alert type="warning" showIcon title={t("contracts.marketClosed")} />}
        {loggedIn ? (
          <Flex gap={12}>
            {(["long", "short"] as const).map((side) => (
              <Button
                key={side}
                type="primary"
                size="large"
                block
                disabled={!figures(side) || !product.open}
                onClick={() => setPending(side)}
                data-testid={`contract-open-${side}`}
                style={{ background: side === "long" ? token.colorSuccess : token.colorError }}
              >
                {t(side === "long" ? "contracts.openLong" : "contracts.openShort")}
              </Button>
            ))}
          </Flex>
        ) : (
          <LoginPrompt />
        )}
      </Flex>
      <ConfirmModal
        open={pending !== null}
        title={t("contracts.confirmTitle")}
        busy={open.isPending}
        onOk={confirm}
        onCancel={() => setPending(null)}
        okTestId="contract-confirm"
      >
        <SummaryRows
          rows={[
            { key: "instrument", label: t("contracts.instrument"), value: product.symbol },
            { key: "side", label: t("contracts.side"), value: pending ? t(`contracts.${pending}`) : "" },
            { key: "type", label: t("contracts.orderType"), value: t(`contracts.${orderType}`) },
            { key: "price", label: t("contracts.entryPrice"), value: price ? format.price(price) : "—" },
            { key: "lots", label: t("contracts.lots"), value: lots },
            { key: "leverage", label: t("contracts.leverage"), value: `${leverage}x` },
            { key: "margin", label: t("contracts.margin"), value: shown ? usdt(shown.margin) : "—" },
            { key: "fee", label: t("contracts.fee"), value: shown ? usdt(shown.fee) : "—" },
            {
              key: "liq",
              label: t("contracts.liquidationPrice"),
              value: (
                <span data-testid="contract-confirm-liq">
                  {shown ? format.price(shown.liquidationPrice) : "—"}
                </span>
              ),
            },
            {
              key: "overnight",
              label: t("contracts.overnightRate"),
              value: shown
                ? t("contracts.overnightEstimate", {
                    rate: shown.overnightPercent,
                    amount: format.exact(shown.overnight, 2, 8),
                  })
                : "—",
            },
            { key: "tp", label: t("contracts.takeProfit"), value: takeProfit || "—" },
            { key: "sl", label: t("contracts.stopLoss"), value: stopLoss || "—" },
          ]}
        />
      </ConfirmModal>
    </Card>
  );
}
