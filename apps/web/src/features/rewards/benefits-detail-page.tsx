import { useQuery } from "@tanstack/react-query";
import { Flex, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { AppLink } from "../../lib/navigation.tsx";
import { useIsLoggedIn } from "../../lib/session.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { useMoneyFormat } from "../assets/assets-format.ts";
import { LoginPrompt } from "../common/login-prompt.tsx";
import { Page } from "../common/page.tsx";
import { Panel } from "../common/panel.tsx";
import { SignInCard } from "./sign-in-card.tsx";

/** /benefitsDetail: the 7-day sign-in with today's claim, and my recent sign-ins. */
export function BenefitsDetailPage() {
  const { t } = useTranslation();
  const loggedIn = useIsLoggedIn();
  return (
    <Page title={t("rewards.signIn")} width={820}>
      {loggedIn ? (
        <Flex vertical gap={16}>
          <SignInCard />
          <SignInHistory />
          <AppLink to="/signRule">{t("rewards.rules")}</AppLink>
        </Flex>
      ) : (
        <LoginPrompt />
      )}
    </Page>
  );
}

function SignInHistory() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const format = useMoneyFormat();
  const claims = useQuery(trpc.rewards.claims.queryOptions());
  if (!claims.data || claims.data.length === 0) {
    return null;
  }
  return (
    <Panel title={t("rewards.history")} testId="sign-in-history">
      <Flex vertical gap={6}>
        {claims.data.map((c) => (
          <Flex key={c.date} justify="space-between" data-testid="sign-in-claim-row">
            <Typography.Text className="ns-num">
              {c.date} · {t("rewards.day", { day: c.day })}
            </Typography.Text>
            <Typography.Text className="ns-num">
              +{format.grouped(c.amount)} {c.currency}
            </Typography.Text>
          </Flex>
        ))}
      </Flex>
    </Panel>
  );
}
