import { launchpadCost } from "@northstar/shared/contracts/launchpad";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Button, Card, Flex, Input, Tag, Typography } from "antd";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { feedback } from "../../lib/feedback.ts";
import { useAppNavigate } from "../../lib/navigation.tsx";
import { useRequestIntent, withRequestKey } from "../../lib/request-key.ts";
import { useTRPC, useTRPCClient } from "../../lib/trpc.ts";
import { amountInput, useMoneyFormat } from "../assets/assets-format.ts";
import { ConfirmModal, SummaryRows } from "../common/confirm-summary-dialog.tsx";
import { SetByPlatform } from "../common/set-by-platform.tsx";
import { KeyValue } from "../funding/key-value.tsx";
import { useCurrencyDecimals } from "../funding/use-currency-decimals.ts";
import { useFormatDateTime } from "../funding/use-format-date-time.ts";
import type { Offering } from "./launchpad-types.ts";

/** An offering with every figure, and while it is open, the quantity to subscribe and its confirmation. */
export function OfferingCard({ offering: o }: { offering: Offering }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const client = useTRPCClient();
  const intent = useRequestIntent();
  const queryClient = useQueryClient();
  const go = useAppNavigate();
  const format = useMoneyFormat();
  const formatDateTime = useFormatDateTime();
  const decimalsOf = useCurrencyDecimals();
  const [quantity, setQuantity] = useState("");
  const [confirming, setConfirming] = useState(false);
  const sending = useRef(false);
  const subscribe = useMutation({
    ...trpc.launchpad.subscribe.mutationOptions(),
    mutationFn: withRequestKey(client.launchpad.subscribe.mutate, intent),
  });
  const now = Date.now();
  const open =
    o.status === "open" && new Date(o.startsAt).getTime() <= now && now < new Date(o.endsAt).getTime();
  // What the server freezes: price × quantity rounded up to the pay currency's decimals.
  const amount = /^\d+(\.\d+)?$/.test(quantity)
    ? launchpadCost(quantity, o.subscribePrice, decimalsOf(o.payCurrency) ?? 18).toFixed()
    : "0";
  const pay = (v: string) => `${format.exact(v, 2, 8)} ${o.payCurrency}`;
  const coins = (v: string) => `${format.exact(v, 0, 8)} ${o.coin}`;

  const confirm = () => {
    if (sending.current) {
      return;
    }
    sending.current = true;
    subscribe.mutate(
      { offering_id: o.id, quantity },
      {
        onSuccess: () => {
          feedback.success(t("launchpad.done"));
          setConfirming(false);
          void queryClient.invalidateQueries(trpc.launchpad.pathFilter());
          void queryClient.invalidateQueries(trpc.asset.pathFilter());
          go("/subscriptionRecord");
        },
        onError: () => setConfirming(false),
        onSettled: () => {
          sending.current = false;
        },
      },
    );
  };

  return (
    <Card size="small" style={{ marginBottom: 12 }} data-testid="launchpad-offering" data-coin={o.coin}>
      <Flex justify="space-between" align="baseline" gap={8} wrap>
        <Typography.Text strong style={{ fontSize: 16 }}>
          {o.coin} · {o.name}
        </Typography.Text>
        <Tag
          color={o.status === "open" ? "processing" : "default"}
          variant="filled"
          style={{ marginInlineEnd: 0 }}
        >
          {t(`launchpad.offering.${o.status}`)}
        </Tag>
      </Flex>
      <KeyValue label={t("launchpad.issuePrice")}>{pay(o.issuePrice)}</KeyValue>
      <KeyValue label={t("launchpad.subscribePrice")}>
        {pay(o.subscribePrice)}
        <SetByPlatform />
      </KeyValue>
      <KeyValue label={t("launchpad.total")}>{coins(o.totalQuantity)}</KeyValue>
      <KeyValue label={t("launchpad.subscribed")}>{coins(o.subscribed)}</KeyValue>
      <KeyValue label={t("launchpad.perUser")}>
        {format.exact(o.minQuantity, 0, 8)} – {coins(o.maxQuantity)}
      </KeyValue>
      <KeyValue label={t("launchpad.window")}>
        {formatDateTime(o.startsAt)} – {formatDateTime(o.endsAt)}
      </KeyValue>
      <KeyValue label={t("launchpad.lockDays")}>{t("launchpad.days", { count: o.lockDays })}</KeyValue>
      <KeyValue label={t("launchpad.listingDay")}>{o.listingDay}</KeyValue>
      <KeyValue label={t("launchpad.circulation")}>{coins(o.circulation)}</KeyValue>
      {open && (
        <Flex vertical gap={8} style={{ marginTop: 12 }}>
          <Input
            value={quantity}
            onChange={(e) => setQuantity(amountInput(8)(e.target.value))}
            inputMode="decimal"
            autoComplete="off"
            placeholder={t("launchpad.quantityPlaceholder")}
            suffix={o.coin}
            data-testid="launchpad-quantity"
          />
          <KeyValue label={t("launchpad.amount")}>
            <span data-testid="launchpad-amount">{pay(amount)}</span>
          </KeyValue>
          <Button
            type="primary"
            block
            disabled={!/[1-9]/.test(quantity)}
            onClick={() => setConfirming(true)}
            data-testid="launchpad-subscribe"
          >
            {t("launchpad.subscribe")}
          </Button>
        </Flex>
      )}
      <ConfirmModal
        open={confirming}
        title={t("launchpad.confirmTitle")}
        busy={subscribe.isPending}
        onOk={confirm}
        onCancel={() => setConfirming(false)}
        okTestId="launchpad-subscribe-confirm"
      >
        <SummaryRows
          rows={[
            { key: "coin", label: t("launchpad.title"), value: `${o.coin} · ${o.name}` },
            { key: "quantity", label: t("launchpad.quantity"), value: coins(quantity || "0") },
            { key: "price", label: t("launchpad.subscribePrice"), value: pay(o.subscribePrice) },
            { key: "frozen", label: t("launchpad.amount"), value: <strong>{pay(amount)}</strong> },
            {
              key: "lock",
              label: t("launchpad.lockDays"),
              value: t("launchpad.days", { count: o.lockDays }),
            },
          ]}
        />
      </ConfirmModal>
    </Card>
  );
}
