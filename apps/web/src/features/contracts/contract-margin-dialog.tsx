import type { TContractPositionView } from "@northstar/shared/contracts/contracts";
import { MoneyDecimal } from "@northstar/shared/money";
import { Flex, Input, Segmented, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { feedback } from "../../lib/feedback.ts";
import { usePolicy } from "../../lib/policy.ts";
import { amountInput, useMoneyFormat } from "../assets/assets-format.ts";
import { ConfirmModal, SummaryRows } from "../common/confirm-summary-dialog.tsx";
import { useAdjustMargin } from "./contracts-data.ts";

/**
 * Adds margin to a position (up to the policy's maximum extra margin, shown) or takes some back
 * (only what was added, and never so much that the position would be liquidated); confirmed with
 * the margin before and after.
 */
export function ContractMarginDialog({
  position,
  onClose,
}: {
  position: TContractPositionView;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const format = useMoneyFormat();
  const policy = usePolicy();
  const adjust = useAdjustMargin();
  const [direction, setDirection] = useState<"add" | "reduce">("add");
  const [amount, setAmount] = useState("");
  const ceiling = new MoneyDecimal(position.initial_margin).times(
    new MoneyDecimal(1).plus(policy["contracts.maxExtraMarginRatio"]),
  );
  const room = MoneyDecimal.max(ceiling.minus(position.margin), 0)
    .toDecimalPlaces(8, MoneyDecimal.ROUND_DOWN)
    .toFixed();
  const valid = /^\d+(\.\d+)?$/.test(amount) && new MoneyDecimal(amount).gt(0);
  const after = valid
    ? new MoneyDecimal(position.margin)[direction === "add" ? "plus" : "minus"](amount).toFixed()
    : position.margin;
  const usdt = (v: string) => `${format.exact(v, 2, 8)} USDT`;
  return (
    <ConfirmModal
      open
      title={t(direction === "add" ? "contracts.addMargin" : "contracts.reduceMargin")}
      busy={adjust.isPending}
      okTestId="contract-margin-confirm"
      onCancel={onClose}
      onOk={() => {
        if (!valid) {
          return;
        }
        adjust.mutate(
          { id: position.id, direction, amount },
          {
            onSuccess: () => {
              feedback.success(t("contracts.marginChanged"));
              onClose();
            },
          },
        );
      }}
    >
      <Flex vertical gap={8}>
        <Segmented
          block
          value={direction}
          onChange={(v) => setDirection(v as "add" | "reduce")}
          options={[
            { value: "add", label: t("contracts.addMargin") },
            { value: "reduce", label: t("contracts.reduceMargin") },
          ]}
        />
        <Input
          inputMode="decimal"
          value={amount}
          placeholder={t("contracts.amount")}
          onChange={(e) => setAmount(amountInput(8)(e.target.value))}
          suffix="USDT"
          data-testid="contract-margin-amount"
        />
        {direction === "add" && (
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t("contracts.maxExtra", { max: format.exact(room, 2, 8) })}
          </Typography.Text>
        )}
        <SummaryRows
          rows={[
            { key: "before", label: t("contracts.margin"), value: usdt(position.margin) },
            { key: "after", label: "→", value: usdt(after) },
          ]}
        />
      </Flex>
    </ConfirmModal>
  );
}
