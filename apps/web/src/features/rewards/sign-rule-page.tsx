import { useQuery } from "@tanstack/react-query";
import { Typography } from "antd";
import { useTranslation } from "react-i18next";
import { useIsLoggedIn } from "../../lib/session.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { useMoneyFormat } from "../assets/assets-format.ts";
import { Page } from "../common/page.tsx";
import { ErrorState, LoadingState } from "../common/page-states.tsx";
import { browserTimeZone } from "./browser-time-zone.ts";

/** /signRule: the sign-in rules, written from the policy values the server enforces. */
export function SignRulePage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const format = useMoneyFormat();
  const loggedIn = useIsLoggedIn();
  const tasks = useQuery(trpc.rewards.tasks.queryOptions());
  const status = useQuery({
    ...trpc.rewards.signIn.queryOptions({ time_zone: browserTimeZone() }),
    enabled: loggedIn,
  });
  if (tasks.isPending) {
    return (
      <Page title={t("rewards.rules")}>
        <LoadingState rows={4} />
      </Page>
    );
  }
  if (tasks.isError) {
    return (
      <Page title={t("rewards.rules")}>
        <ErrorState onRetry={() => void tasks.refetch()} />
      </Page>
    );
  }
  const s = tasks.data.signIn;
  const timeZone = status.data?.timeZone ?? browserTimeZone() ?? s.defaultTimeZone;
  return (
    <Page title={t("rewards.rules")}>
      <ol data-testid="sign-rules" style={{ paddingInlineStart: 20 }}>
        <li>
          <Typography.Paragraph>{t("rewards.rule1")}</Typography.Paragraph>
          <Typography.Paragraph className="ns-num" type="secondary">
            {s.rewards
              .map((r, i) => `${t("rewards.day", { day: i + 1 })}: ${format.grouped(r)} ${s.currency}`)
              .join(" · ")}
          </Typography.Paragraph>
        </li>
        <li>
          <Typography.Paragraph>{t("rewards.rule2", { timeZone })}</Typography.Paragraph>
        </li>
        <li>
          <Typography.Paragraph data-testid="sign-rule-miss">
            {s.restartOnMiss ? t("rewards.ruleRestart") : t("rewards.ruleContinue")}
          </Typography.Paragraph>
        </li>
        <li>
          <Typography.Paragraph>{t("rewards.rule4")}</Typography.Paragraph>
        </li>
        <li>
          <Typography.Paragraph>{t("rewards.rule5")}</Typography.Paragraph>
        </li>
      </ol>
    </Page>
  );
}
