import { useQuery } from "@tanstack/react-query";
import { Alert, Flex, Typography } from "antd";
import { QRCodeSVG } from "qrcode.react";
import { useTranslation } from "react-i18next";
import { useTRPC } from "../../lib/trpc.ts";
import { useMoneyFormat } from "../assets/assets-format.ts";
import { Page } from "../common/page.tsx";
import { ErrorState, LoadingState } from "../common/page-states.tsx";
import { Panel } from "../common/panel.tsx";
import { percent } from "./percent.ts";

/**
 * /invite: my invitation code and link with its QR code, and per level the share of the invitees'
 * trading fees I earn, how many there are and what they have earned me (the same figures as
 * web/getMyPromotion). A demo account is shown no code but why: it cannot invite.
 */
export function InvitePage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const format = useMoneyFormat();
  const mine = useQuery(trpc.referral.mine.queryOptions());
  const incomeText = (income: { currency: string; amount: string }[]) =>
    income.length === 0
      ? "0"
      : income.map((i) => `${format.exact(i.amount, 2, 8)} ${i.currency}`).join(" · ");
  return (
    <Page title={t("referral.title")} width={820}>
      {mine.isPending ? (
        <LoadingState rows={6} />
      ) : mine.isError ? (
        <ErrorState onRetry={() => void mine.refetch()} />
      ) : (
        <Flex vertical gap={16}>
          <Typography.Paragraph type="secondary">
            {t("referral.intro", { levels: mine.data.levels.length })}
          </Typography.Paragraph>
          <Panel title={t("referral.code")}>
            {mine.data.canInvite ? (
              <Flex wrap gap={24} align="center">
                <Flex vertical gap={8} style={{ flex: "1 1 260px", minWidth: 0 }}>
                  <Typography.Title
                    level={3}
                    copyable
                    className="ns-num"
                    data-testid="invite-code"
                    style={{ margin: 0 }}
                  >
                    {mine.data.code}
                  </Typography.Title>
                  <Typography.Text type="secondary">{t("referral.link")}</Typography.Text>
                  <Typography.Paragraph
                    copyable={{ text: mine.data.link }}
                    data-testid="invite-link"
                    style={{ wordBreak: "break-all", margin: 0 }}
                  >
                    {mine.data.link}
                  </Typography.Paragraph>
                </Flex>
                <Flex vertical align="center" gap={4}>
                  <div style={{ background: "#fff", padding: 8, lineHeight: 0 }}>
                    <QRCodeSVG value={mine.data.link} size={136} data-testid="invite-qr" />
                  </div>
                  <Typography.Text type="secondary">{t("referral.qr")}</Typography.Text>
                </Flex>
              </Flex>
            ) : (
              // A demo account cannot invite (registration refuses its code): no code, and why.
              <Alert
                type="info"
                showIcon
                message={t("referral.demoCannotInvite")}
                data-testid="invite-demo"
              />
            )}
          </Panel>
          <Flex wrap gap={16}>
            <Panel title={t("referral.totalCount")} style={{ flex: "1 1 200px" }}>
              <Typography.Title
                level={4}
                className="ns-num"
                style={{ margin: 0 }}
                data-testid="invite-total-count"
              >
                {mine.data.totalCount}
              </Typography.Title>
            </Panel>
            <Panel title={t("referral.totalIncome")} style={{ flex: "1 1 200px" }}>
              <Typography.Title
                level={4}
                className="ns-num"
                style={{ margin: 0 }}
                data-testid="invite-total-income"
              >
                {incomeText(mine.data.totalIncome)}
              </Typography.Title>
            </Panel>
          </Flex>
          <Flex wrap gap={12}>
            {mine.data.levels.map((l) => (
              <Panel
                key={l.level}
                testId={`invite-level-${l.level}`}
                title={t("referral.level", { level: l.level })}
                extra={t("referral.rate", { rate: percent(l.rate) })}
                style={{ flex: "1 1 180px" }}
              >
                <Flex vertical gap={4}>
                  <Typography.Text type="secondary">{t("referral.count")}</Typography.Text>
                  <Typography.Text strong className="ns-num" data-testid={`invite-level-${l.level}-count`}>
                    {l.count}
                  </Typography.Text>
                  <Typography.Text type="secondary">{t("referral.income")}</Typography.Text>
                  <Typography.Text className="ns-num" data-testid={`invite-level-${l.level}-income`}>
                    {incomeText(l.income)}
                  </Typography.Text>
                </Flex>
              </Panel>
            ))}
          </Flex>
          <Typography.Paragraph type="secondary">{t("referral.rules")}</Typography.Paragraph>
        </Flex>
      )}
    </Page>
  );
}
