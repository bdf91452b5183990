import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Button } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { feedback } from "../../lib/feedback.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { ConfirmModal } from "../common/confirm-summary-dialog.tsx";

/** The buyer cancels an order before paying, after a confirmation; the server releases any reserved stock. */
export function CancelOrderButton({ orderId }: { orderId: number }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const cancel = useMutation(trpc.c2c.cancel.mutationOptions());
  const send = () =>
    cancel.mutate(
      { order_id: orderId },
      {
        onSuccess: () => {
          feedback.success(t("c2c.cancelled"));
          setConfirming(false);
          void queryClient.invalidateQueries(trpc.c2c.pathFilter());
        },
        onError: () => setConfirming(false),
      },
    );
  return (
    <>
      <Button
        block
        danger
        style={{ marginTop: 8 }}
        onClick={() => setConfirming(true)}
        data-testid="c2c-cancel"
      >
        {t("c2c.cancel")}
      </Button>
      <ConfirmModal
        open={confirming}
        title={t("c2c.cancelTitle")}
        busy={cancel.isPending}
        onOk={send}
        onCancel={() => setConfirming(false)}
        okTestId="c2c-cancel-confirm"
      >
        {t("c2c.cancelText")}
      </ConfirmModal>
    </>
  );
}
