import { riskRate, unrealisedPnl } from "@northstar/shared/contract-math";
import type { TContractPositionView } from "@northstar/shared/contracts/contracts";
import { MoneyDecimal } from "@northstar/shared/money";
import { useQueryClient } from "@tanstack/react-query";
import { Button, Card, Descriptions, Flex, Grid, Tag, Typography, theme } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { feedback } from "../../lib/feedback.ts";
import { useTicker } from "../../lib/market-socket.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { NUMERIC_STYLE, useMoneyFormat } from "../assets/assets-format.ts";
import { ConfirmModal } from "../common/confirm-summary-dialog.tsx";
import { PriceSource } from "../markets/price-source.tsx";
import { ContractMarginDialog } from "./contract-margin-dialog.tsx";
import { useCancelContract, useCloseContract } from "./contracts-data.ts";

/** Half of the lots, rounded down to the lot step's 0.01; "0" when the position cannot be halved. */
function halfOf(lots: string): string {
  return new MoneyDecimal(lots).div(2).toDecimalPlaces(2, MoneyDecimal.ROUND_DOWN).toFixed();
}

/**
 * One position or order with every field of SPEC section 3; a holding position shows its live PnL
 * and risk rate from the feed price, and offers add margin, close half and close.
 */
export function ContractPositionCard({ position }: { position: TContractPositionView }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  // On a phone each figure goes under its label: side by side, two columns of them are wider than the screen.
  const wide = Grid.useBreakpoint().sm ?? false;
  const format = useMoneyFormat();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const ticker = useTicker(position.status === "holding" ? position.symbol : undefined);
  const close = useCloseContract();
  const cancel = useCancelContract();
  const [closing, setClosing] = useState<string | null>(null);
  const [margin, setMargin] = useState(false);
  const holding = position.status === "holding";
  const price = ticker?.p;
  const terms = {
    side: position.side,
    entryPrice: position.entry_price ?? "0",
    lots: position.lots,
    contractSize: position.contract_size,
    margin: position.margin,
    maintenanceRate: position.maintenance_rate,
  };
  const pnl =
    holding && price
      ? unrealisedPnl(position.side, terms.entryPrice, price, position.lots, position.contract_size)
      : null;
  const risk = holding && price ? riskRate(terms, price) : null;
  const usdt = (v: string) => `${format.exact(v, 2, 8)} USDT`;
  const colour = (v: string) => (new MoneyDecimal(v).gte(0) ? token.colorSuccess : token.colorError);
  const half = halfOf(position.lots);

  const rows = [
    {
      key: "entry",
      label: t("contracts.entryPrice"),
      children: position.entry_price ?? position.limit_price ?? "—",
    },
    ...(holding ? [{ key: "now", label: t("contracts.currentPrice"), children: price ?? "—" }] : []),
    { key: "lots", label: t("contracts.lots"), children: `${position.lots} / ${position.original_lots}` },
    {
      key: "margin",
      label: t("contracts.margin"),
      children: <span data-testid="contract-margin">{usdt(position.margin)}</span>,
    },
    ...(pnl !== null
      ? [
          {
            key: "pnl",
            label: t("contracts.pnl"),
            children: (
              <span data-testid="contract-pnl" style={{ color: colour(pnl) }}>
                {format.signed(pnl, 2, 8)}
              </span>
            ),
          },
          {
            key: "risk",
            label: t("contracts.riskRate"),
            children: `${new MoneyDecimal(risk ?? "0").times(100).toFixed(2)}%`,
          },
        ]
      : []),
    ...(position.liquidation_price
      ? [{ key: "liq", label: t("contracts.liquidationPrice"), children: position.liquidation_price }]
      : []),
    { key: "tp", label: t("contracts.takeProfit"), children: position.take_profit ?? "—" },
    { key: "sl", label: t("contracts.stopLoss"), children: position.stop_loss ?? "—" },
    { key: "openFee", label: t("contracts.openFee"), children: usdt(position.open_fee) },
    { key: "closeFee", label: t("contracts.closeFee"), children: usdt(position.close_fee) },
    { key: "overnight", label: t("contracts.overnightTotal"), children: usdt(position.overnight_total) },
    {
      key: "realised",
      label: t("contracts.realisedPnl"),
      children: <span data-testid="contract-realised">{format.signed(position.realised_pnl, 2, 8)}</span>,
    },
    ...(position.exit_price
      ? [{ key: "exit", label: t("contracts.exitPrice"), children: position.exit_price }]
      : []),
    ...(position.expires_at
      ? [
          {
            key: "expires",
            label: t("contracts.expiresAt"),
            children: (
              <span data-testid="contract-position-expiry">
                {new Date(position.expires_at).toLocaleString()}
              </span>
            ),
          },
        ]
      : []),
    {
      key: "opened",
      label: t("contracts.openedAt"),
      children: new Date(position.opened_at ?? position.created_at).toLocaleString(),
    },
    ...(position.closed_at
      ? [
          {
            key: "closed",
            label: t("contracts.closedAt"),
            children: new Date(position.closed_at).toLocaleString(),
          },
        ]
      : []),
  ];

  return (
    <Card size="small" data-testid={`contract-position-${position.id}`}>
      <Flex justify="space-between" align="center" wrap gap={8}>
        <Flex gap={6} align="center" wrap>
          <Typography.Text strong>{position.symbol}</Typography.Text>
          <Tag color={position.side === "long" ? "green" : "red"}>
            {t(`contracts.${position.side}`)} {position.leverage}x
          </Tag>
          <Tag>{t(`contracts.${position.type}`)}</Tag>
          <Tag data-testid="contract-status">{t(`contracts.status_${position.status}`)}</Tag>
          {position.close_reason && <Tag>{t(`contracts.reason_${position.close_reason}`)}</Tag>}
        </Flex>
        {holding && (
          <Flex gap={6} wrap>
            <Button size="small" onClick={() => setMargin(true)} data-testid="contract-add-margin">
              {t("contracts.addMargin")}
            </Button>
            {new MoneyDecimal(half).gt(0) && (
              <Button size="small" onClick={() => setClosing(half)} data-testid="contract-close-half">
                {t("contracts.closeHalf")}
              </Button>
            )}
            <Button
              size="small"
              danger
              onClick={() => setClosing(position.lots)}
              data-testid="contract-close"
            >
              {t("contracts.close")}
            </Button>
          </Flex>
        )}
        {position.status === "pending" && (
          <Button
            size="small"
            loading={cancel.isPending}
            onClick={() => cancel.mutate({ id: position.id })}
            data-testid="contract-cancel"
          >
            {t("contracts.cancel")}
          </Button>
        )}
      </Flex>
      <Descriptions
        size="small"
        column={{ xs: 2, sm: 3, md: 4 }}
        layout={wide ? "horizontal" : "vertical"}
        items={rows}
        style={{ marginTop: 8, ...NUMERIC_STYLE }}
      />
      {position.close_source && (
        <PriceSource
          source={position.close_source}
          fileName={`position-${position.id}-ticks.csv`}
          loadTicks={() =>
            queryClient.fetchQuery({
              ...trpc.contracts.ticks.queryOptions({ id: position.id }),
              staleTime: 0,
            })
          }
        />
      )}
      <ConfirmModal
        open={closing !== null}
        title={t("contracts.close")}
        busy={close.isPending}
        okTestId="contract-close-confirm"
        onCancel={() => setClosing(null)}
        onOk={() =>
          close.mutate(
            { id: position.id, lots: closing === position.lots ? undefined : (closing ?? undefined) },
            {
              onSuccess: () => {
                setClosing(null);
                feedback.success(t("contracts.closed"));
              },
              onError: () => setClosing(null),
            },
          )
        }
      >
        {t("contracts.confirmClose", { lots: closing ?? "", symbol: position.symbol })}
      </ConfirmModal>
      {margin && <ContractMarginDialog position={position} onClose={() => setMargin(false)} />}
    </Card>
  );
}
