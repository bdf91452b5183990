import { CheckCircleFilled, RightOutlined } from "@ant-design/icons";
import { Button, Flex, List, Tag, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { AppLink } from "../../lib/navigation.tsx";
import { Page } from "../common/page.tsx";
import { ErrorState, LoadingState } from "../common/page-states.tsx";
import { KycStatusTag } from "./kyc-status-tag.tsx";
import { useFormatUsdt } from "./use-format-usdt.ts";
import { useKycStatus } from "./use-kyc-status.ts";

/**
 * /authentication (alias /sfyz): the verification centre. Each step with its state and the way to
 * it, what the user may do at this level (the gates of SPEC section 6), and the risk level.
 */
export function VerificationPage() {
  const { t } = useTranslation();
  const status = useKycStatus();
  const usdt = useFormatUsdt();
  if (status.isPending) {
    return (
      <Page title={t("kyc.title.center")}>
        <LoadingState />
      </Page>
    );
  }
  if (status.isError) {
    return (
      <Page title={t("kyc.title.center")}>
        <ErrorState onRetry={() => void status.refetch()} />
      </Page>
    );
  }
  const s = status.data;
  const steps = [
    { key: "primary", path: "/smauth", state: s.primary?.status ?? "unverified" },
    { key: "advanced", path: "/seniorauth", state: s.advanced?.status ?? "unverified" },
    { key: "address", path: "/dzrz", state: s.address?.status ?? "unverified" },
  ] as const;
  return (
    <Page title={t("kyc.title.center")}>
      <Flex vertical gap={24}>
        <List
          dataSource={[...steps]}
          renderItem={(step) => (
            <AppLink to={step.path}>
              <List.Item data-testid={`kyc-step-${step.key}`}>
                <Flex justify="space-between" align="center" gap={8} style={{ width: "100%" }} wrap>
                  <Typography.Text strong>{t(`kyc.title.${step.key}`)}</Typography.Text>
                  <Flex align="center" gap={8}>
                    <KycStatusTag status={step.state} testId={`kyc-step-${step.key}-status`} />
                    <RightOutlined />
                  </Flex>
                </Flex>
              </List.Item>
            </AppLink>
          )}
        />
        <Flex vertical gap={8}>
          <Typography.Title level={5} style={{ margin: 0 }}>
            {t("kyc.title.questionnaire")}
          </Typography.Title>
          <Flex justify="space-between" align="center" gap={8} wrap>
            <Typography.Text data-testid="kyc-risk-level">
              {t("kyc.risk.level")}: <Tag>{t(`kyc.risk.levels.${s.risk.level}`)}</Tag>
            </Typography.Text>
            <Typography.Text type="secondary">
              {t("kyc.risk.maxPerOrder")}: <span className="ns-num">{usdt(s.risk.maxPerOrderUsdt)}</span>
            </Typography.Text>
            <AppLink to="/questionnaire">
              <Button data-testid="kyc-go-questionnaire">
                {s.risk.level === "notAssessed" ? t("kyc.actions.start") : t("kyc.actions.retake")}
              </Button>
            </AppLink>
          </Flex>
        </Flex>
        <Flex vertical gap={8}>
          <Typography.Title level={5} style={{ margin: 0 }}>
            {t("kyc.title.credit")}
          </Typography.Title>
          {(["loans", "c2c", "creditScore"] as const).map((action) => {
            const gate = s.gates[action];
            return (
              <Flex
                key={action}
                justify="space-between"
                align="center"
                gap={8}
                wrap
                data-testid={`kyc-gate-${action}`}
              >
                <Typography.Text>{t(`kyc.gates.${action}`)}</Typography.Text>
                {gate.allowed ? (
                  <Typography.Text type="success">
                    <CheckCircleFilled /> {t("kyc.gates.allowed")}
                  </Typography.Text>
                ) : (
                  <AppLink to={gate.next === "advanced" ? "/seniorauth" : "/smauth"}>
                    <Typography.Text type="warning">
                      {t(gate.next === "advanced" ? "kyc.gates.needAdvanced" : "kyc.gates.needPrimary")}
                    </Typography.Text>
                  </AppLink>
                )}
              </Flex>
            );
          })}
          <AppLink to="/credit">
            <Button block data-testid="kyc-go-credit">
              {t("kyc.title.credit")}
            </Button>
          </AppLink>
        </Flex>
      </Flex>
    </Page>
  );
}
