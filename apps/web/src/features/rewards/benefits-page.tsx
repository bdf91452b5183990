import { useQuery } from "@tanstack/react-query";
import { Button, Flex, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { AppLink } from "../../lib/navigation.tsx";
import { useIsLoggedIn } from "../../lib/session.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { useMoneyFormat } from "../assets/assets-format.ts";
import { LoginPrompt } from "../common/login-prompt.tsx";
import { Page } from "../common/page.tsx";
import { ErrorState, LoadingState } from "../common/page-states.tsx";
import { Panel } from "../common/panel.tsx";
import { percent } from "../referral/percent.ts";
import { SignInCard } from "./sign-in-card.tsx";

/** /benefits: the reward centre: its tasks and what each pays (policy), and my sign-in card. */
export function BenefitsPage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const loggedIn = useIsLoggedIn();
  const format = useMoneyFormat();
  const tasks = useQuery(trpc.rewards.tasks.queryOptions());
  return (
    <Page title={t("rewards.title")} width={820}>
      <Flex vertical gap={16}>
        {loggedIn ? <SignInCard /> : <LoginPrompt />}
        <Typography.Title level={5} style={{ margin: 0 }}>
          {t("rewards.tasks")}
        </Typography.Title>
        {tasks.isPending ? (
          <LoadingState rows={3} />
        ) : tasks.isError ? (
          <ErrorState onRetry={() => void tasks.refetch()} />
        ) : (
          <Flex vertical gap={12}>
            <Panel
              testId="task-sign-in"
              title={t("rewards.signInTask")}
              extra={
                <AppLink to="/benefitsDetail">
                  <Button size="small" type="primary">
                    {t("rewards.go")}
                  </Button>
                </AppLink>
              }
            >
              <Typography.Text>
                {t("rewards.signInTaskHint", {
                  total: format.grouped(tasks.data.signIn.cycleTotal),
                  currency: tasks.data.signIn.currency,
                })}
              </Typography.Text>
              <Typography.Paragraph type="secondary" className="ns-num" style={{ margin: "4px 0 0" }}>
                {tasks.data.signIn.rewards.map((r) => `+${format.grouped(r)}`).join(" · ")}
              </Typography.Paragraph>
            </Panel>
            <Panel
              testId="task-invite"
              title={t("rewards.inviteTask")}
              extra={
                <AppLink to="/invite">
                  <Button size="small" type="primary">
                    {t("rewards.go")}
                  </Button>
                </AppLink>
              }
            >
              <Typography.Text>
                {t("rewards.inviteTaskHint", {
                  rates: tasks.data.invite.levelRates.map(percent).join(" / "),
                })}
              </Typography.Text>
            </Panel>
            <AppLink to="/signRule">{t("rewards.rules")}</AppLink>
          </Flex>
        )}
      </Flex>
    </Page>
  );
}
