import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Flex, Typography } from "antd";
import { useRef } from "react";
import { useTranslation } from "react-i18next";
import { feedback } from "../../lib/feedback.ts";
import { useRequestIntent, withRequestKey } from "../../lib/request-key.ts";
import { useTRPC, useTRPCClient } from "../../lib/trpc.ts";
import { useMoneyFormat } from "../assets/assets-format.ts";
import { ErrorState, LoadingState } from "../common/page-states.tsx";
import { Panel } from "../common/panel.tsx";
import { browserTimeZone } from "./browser-time-zone.ts";

/**
 * The 7-day sign-in: each day's reward, signed or not, and the claim of today's reward (once per
 * calendar day in the user's time zone; the server decides and refuses a second claim).
 */
export function SignInCard() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const format = useMoneyFormat();
  const timeZone = browserTimeZone();
  const status = useQuery(trpc.rewards.signIn.queryOptions({ time_zone: timeZone }));
  const client = useTRPCClient();
  const intent = useRequestIntent();
  // A money action (it credits the reward): sent with an Idempotency-Key, a resend answers the first claim.
  const claim = useMutation({
    ...trpc.rewards.claim.mutationOptions(),
    mutationFn: withRequestKey(client.rewards.claim.mutate, intent),
  });
  const sending = useRef(false);
  if (status.isPending) {
    return <LoadingState rows={3} />;
  }
  if (status.isError) {
    return <ErrorState onRetry={() => void status.refetch()} />;
  }
  const s = status.data;
  const today = s.days[s.day - 1];
  const send = () => {
    if (sending.current) {
      return;
    }
    sending.current = true;
    claim.mutate(
      { time_zone: timeZone },
      {
        onSuccess: (r) => {
          feedback.success(
            t("rewards.claimedToast", { amount: format.grouped(r.amount), currency: r.currency }),
          );
          void queryClient.invalidateQueries(trpc.rewards.pathFilter());
          void queryClient.invalidateQueries(trpc.asset.pathFilter());
        },
        onSettled: () => {
          sending.current = false;
          void queryClient.invalidateQueries(trpc.rewards.signIn.pathFilter());
        },
      },
    );
  };
  return (
    <Panel title={t("rewards.signIn")} testId="sign-in-card" extra={s.today}>
      <Flex wrap gap={8} data-testid="sign-in-days">
        {s.days.map((d) => (
          <Flex
            key={d.day}
            vertical
            align="center"
            gap={2}
            data-testid={`sign-in-day-${d.day}`}
            data-signed={d.signed ? "yes" : "no"}
            style={{
              flex: "1 0 72px",
              padding: "8px 4px",
              borderRadius: 8,
              border: `1px solid ${d.day === s.day && !s.signedToday ? "var(--ant-color-primary, #1677ff)" : "var(--ant-color-border, #d9d9d9)"}`,
              background: d.signed ? "var(--ant-color-primary-bg, #e6f4ff)" : undefined,
            }}
          >
            <Typography.Text type="secondary">{t("rewards.day", { day: d.day })}</Typography.Text>
            <Typography.Text strong className="ns-num">
              +{format.grouped(d.reward)}
            </Typography.Text>
            <Typography.Text type={d.signed ? "success" : "secondary"} style={{ fontSize: 12 }}>
              {d.signed ? t("rewards.signed") : t("rewards.unsigned")}
            </Typography.Text>
          </Flex>
        ))}
      </Flex>
      {s.paused && (
        <Alert
          type="info"
          showIcon
          style={{ marginTop: 16 }}
          title={t("rewards.paused")}
          data-testid="sign-in-paused"
        />
      )}
      <Button
        type="primary"
        block
        style={{ marginTop: 16 }}
        disabled={s.signedToday || s.paused}
        loading={claim.isPending}
        onClick={send}
        data-testid="sign-in-claim"
      >
        {s.signedToday
          ? t("rewards.claimed")
          : t("rewards.claim", { amount: format.grouped(today?.reward ?? "0"), currency: s.currency })}
      </Button>
    </Panel>
  );
}
