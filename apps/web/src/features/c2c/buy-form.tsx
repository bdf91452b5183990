import { C2C_FIAT_DECIMALS } from "@northstar/shared/c2c";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Flex, Input, Segmented, Select } from "antd";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useAppNavigate } from "../../lib/navigation.tsx";
import { useRequestIntent, withRequestKey } from "../../lib/request-key.ts";
import { useTRPC, useTRPCClient } from "../../lib/trpc.ts";
import { amountInput, useMoneyFormat } from "../assets/assets-format.ts";
import { ConfirmModal, SummaryRows } from "../common/confirm-summary-dialog.tsx";
import { SetByPlatform } from "../common/set-by-platform.tsx";
import { KeyValue } from "../funding/key-value.tsx";
import { useCurrencyDecimals } from "../funding/use-currency-decimals.ts";
import type { C2cMerchant } from "./c2c-types.ts";

/**
 * The purchase form: coin, pay a fiat amount or receive a coin quantity, the quote with the locked
 * price and the payment deadline, then the confirmation before the order is placed. With a merchant
 * chosen (quick purchase) the quote is that merchant's; otherwise the best price.
 */
export function BuyForm({ merchants, merchant }: { merchants: C2cMerchant[]; merchant?: C2cMerchant }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const client = useTRPCClient();
  const intent = useRequestIntent();
  const queryClient = useQueryClient();
  const go = useAppNavigate();
  const format = useMoneyFormat();
  const decimalsOf = useCurrencyDecimals();
  const coins = [...new Set(merchants.map((m) => m.coin))];
  const [coin, setCoin] = useState(merchant?.coin ?? coins[0] ?? "USDT");
  const [mode, setMode] = useState<"fiat" | "coin">("fiat");
  const [amount, setAmount] = useState("");
  const [confirming, setConfirming] = useState(false);
  const sending = useRef(false);
  const valid = /[1-9]/.test(amount) && !amount.endsWith(".");
  const input = { coin, mode, amount, ...(merchant ? { merchant_id: merchant.id } : {}) };
  const quote = useQuery({
    ...trpc.c2c.quote.queryOptions(input, { placeholderData: keepPreviousData }),
    enabled: valid,
    retry: false,
  });
  const create = useMutation({
    ...trpc.c2c.create.mutationOptions(),
    mutationFn: withRequestKey(client.c2c.create.mutate, intent),
  });
  const q = valid ? quote.data : undefined;
  const fiat = (v: string, cur: string) => `${format.exact(v, 2, C2C_FIAT_DECIMALS)} ${cur}`;
  // The quote's coins are already cut to the coin's decimals by the server.
  const coinDecimals = decimalsOf(coin) ?? 8;
  const coinText = (v: string, cur: string) => `${format.exact(v, 0, coinDecimals)} ${cur}`;

  const confirm = () => {
    if (sending.current) {
      return;
    }
    sending.current = true;
    if (!q) {
      sending.current = false;
      return;
    }
    // The order is placed with the merchant and price the user saw; a changed price is refused.
    create.mutate(
      { ...input, merchant_id: q.merchantId, price: q.price },
      {
        onSuccess: (order) => {
          setConfirming(false);
          void queryClient.invalidateQueries(trpc.c2c.pathFilter());
          go(`/c2c_order?id=${order.id}`);
        },
        onError: () => setConfirming(false),
        onSettled: () => {
          sending.current = false;
        },
      },
    );
  };

  return (
    <Flex vertical gap={12} data-testid="c2c-buy-form">
      {!merchant && coins.length > 1 && (
        <Select
          value={coin}
          onChange={setCoin}
          options={coins.map((c) => ({ value: c, label: c }))}
          data-testid="c2c-coin"
        />
      )}
      <Segmented
        block
        value={mode}
        onChange={(v) => {
          setMode(v as "fiat" | "coin");
          setAmount("");
        }}
        options={[
          { value: "fiat", label: t("c2c.byFiat") },
          { value: "coin", label: t("c2c.byCoin") },
        ]}
        data-testid="c2c-mode"
      />
      <Input
        value={amount}
        onChange={(e) =>
          setAmount(amountInput(mode === "fiat" ? C2C_FIAT_DECIMALS : coinDecimals)(e.target.value))
        }
        inputMode="decimal"
        autoComplete="off"
        placeholder={mode === "fiat" ? t("c2c.fiatPlaceholder") : t("c2c.coinPlaceholder")}
        suffix={mode === "fiat" ? (q?.fiat ?? merchant?.fiat ?? "") : coin}
        data-testid="c2c-amount"
      />
      {valid && quote.isError && (
        <Alert type="warning" showIcon message={quote.error.message} data-testid="c2c-quote-error" />
      )}
      {q && (
        <div data-testid="c2c-quote">
          <KeyValue label={t("c2c.merchant")}>{q.merchantName}</KeyValue>
          <KeyValue label={t("c2c.price")}>
            <span data-testid="c2c-quote-price">{`1 ${q.coin} = ${fiat(q.price, q.fiat)}`}</span>
            <SetByPlatform />
          </KeyValue>
          <KeyValue label={t("c2c.youPay")}>
            <strong data-testid="c2c-quote-fiat">{fiat(q.fiatAmount, q.fiat)}</strong>
          </KeyValue>
          <KeyValue label={t("c2c.youGet")}>
            <strong data-testid="c2c-quote-coin">{coinText(q.coinAmount, q.coin)}</strong>
          </KeyValue>
          <KeyValue label={t("c2c.validity")}>
            {t("c2c.validityValue", { count: q.validityMinutes / 60 })}
          </KeyValue>
          {!q.inStock && <Alert type="info" showIcon message={t("c2c.waitsForStock")} />}
        </div>
      )}
      <Button
        type="primary"
        block
        disabled={!q || quote.isFetching}
        onClick={() => setConfirming(true)}
        data-testid="c2c-buy"
      >
        {t("c2c.buy")}
      </Button>
      <ConfirmModal
        open={confirming && q !== undefined}
        title={t("c2c.confirmTitle")}
        busy={create.isPending}
        onOk={confirm}
        onCancel={() => setConfirming(false)}
        okTestId="c2c-buy-confirm"
      >
        {q && (
          <SummaryRows
            rows={[
              { key: "merchant", label: t("c2c.merchant"), value: q.merchantName },
              { key: "price", label: t("c2c.price"), value: `1 ${q.coin} = ${fiat(q.price, q.fiat)}` },
              { key: "pay", label: t("c2c.youPay"), value: <strong>{fiat(q.fiatAmount, q.fiat)}</strong> },
              { key: "get", label: t("c2c.youGet"), value: coinText(q.coinAmount, q.coin) },
              {
                key: "deadline",
                label: t("c2c.validity"),
                value: t("c2c.confirmDeadline", { count: q.validityMinutes / 60 }),
              },
            ]}
          />
        )}
      </ConfirmModal>
    </Flex>
  );
}
