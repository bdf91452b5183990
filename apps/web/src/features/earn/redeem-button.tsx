import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Button, Flex } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { feedback } from "../../lib/feedback.ts";
import { useRequestIntent, withRequestKey } from "../../lib/request-key.ts";
import { useTRPC, useTRPCClient } from "../../lib/trpc.ts";
import { useMoneyFormat } from "../assets/assets-format.ts";
import { ConfirmModal, SummaryRows } from "../common/confirm-summary-dialog.tsx";
import type { EarnOrder } from "./earn-types.ts";

/** Early redemption: the penalty and what comes back are shown first, then the request is sent once. */
export function RedeemButton({ order }: { order: EarnOrder }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const client = useTRPCClient();
  const intent = useRequestIntent();
  const queryClient = useQueryClient();
  const format = useMoneyFormat();
  const [open, setOpen] = useState(false);
  const detail = useQuery(trpc.earn.order.queryOptions({ order_id: order.id }, { enabled: open }));
  const redeem = useMutation({
    ...trpc.earn.redeem.mutationOptions(),
    mutationFn: withRequestKey(client.earn.redeem.mutate, intent),
  });
  const money = (v: string) => `${format.exact(v, 2, 8)} ${order.currency}`;
  const confirm = () =>
    redeem.mutate(
      { order_id: order.id },
      {
        onSuccess: (r) => {
          feedback.success(t(r.status === "redeeming" ? "earn.redeemQueued" : "earn.redeemOk"));
          setOpen(false);
        },
        onError: () => setOpen(false),
        onSettled: () => {
          void queryClient.invalidateQueries(trpc.earn.pathFilter());
          void queryClient.invalidateQueries(trpc.asset.pathFilter());
        },
      },
    );
  const quote = detail.data?.quote;
  return (
    <Flex justify="flex-end">
      <Button size="small" onClick={() => setOpen(true)} data-testid="earn-redeem">
        {order.status === "redemption_rejected" ? t("earn.reapply") : t("earn.redeem")}
      </Button>
      <ConfirmModal
        open={open}
        title={t("earn.confirmRedeemTitle")}
        busy={redeem.isPending || !quote}
        onOk={confirm}
        onCancel={() => setOpen(false)}
        okTestId="earn-redeem-confirm"
      >
        <SummaryRows
          rows={[
            { key: "principal", label: t("earn.principal"), value: money(order.amount) },
            { key: "days", label: t("earn.remainingDays"), value: quote ? String(quote.remainingDays) : "…" },
            { key: "penalty", label: t("earn.penalty"), value: quote ? money(quote.penalty) : "…" },
            {
              key: "returned",
              label: t("earn.returned"),
              value: <strong>{quote ? money(quote.returned) : "…"}</strong>,
            },
          ]}
        />
      </ConfirmModal>
    </Flex>
  );
}
