import {
  ApiOutlined,
  GoogleOutlined,
  KeyOutlined,
  LockOutlined,
  MailOutlined,
  MobileOutlined,
  QuestionCircleOutlined,
  SafetyCertificateOutlined,
  WalletOutlined,
} from "@ant-design/icons";
import { maskEmail, maskPhone } from "@northstar/shared/display";
import { Button, Flex, Progress, Tag, Typography, theme } from "antd";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useAppNavigate } from "../../lib/navigation.tsx";
import { useSession } from "../../lib/queries.ts";
import { useIsLoggedIn } from "../../lib/session.ts";
import { LoginPrompt } from "../common/login-prompt.tsx";
import { Page } from "../common/page.tsx";
import { ErrorState, LoadingState } from "../common/page-states.tsx";
import { SettingGroup, SettingRow } from "./setting-row.tsx";

/** /security: every protection of the account with its state and the action that changes it. */
export function SecurityCenterPage() {
  const { t } = useTranslation();
  const loggedIn = useIsLoggedIn();
  return (
    <Page title={t("nav.security")} width={680}>
      {loggedIn ? <SecurityRows /> : <LoginPrompt />}
    </Page>
  );
}

function SecurityRows() {
  const { t } = useTranslation();
  const go = useAppNavigate();
  const session = useSession();
  if (session.isPending) {
    return <LoadingState rows={6} />;
  }
  if (session.isError) {
    return <ErrorState onRetry={() => void session.refetch()} />;
  }
  const s = session.data;
  const tradeSet = s.transaction_password === 1;
  const questionsSet = s.security_questions === 1;
  const googleBound = s.google_bound === 1;
  const enabled = [true, tradeSet, s.email !== "", s.phone !== "", questionsSet, googleBound].filter(
    Boolean,
  ).length;

  const action = (label: string, to: string, primary: boolean) => (
    <Button size="small" type={primary ? "primary" : "default"} onClick={() => go(to)}>
      {label}
    </Button>
  );

  return (
    <Flex vertical gap={8}>
      <SecurityLevel enabled={enabled} total={6} />
      <SettingGroup>
        <SettingRow
          testId="security-row-login-password"
          icon={<LockOutlined />}
          title={t("account.security.loginPassword")}
          status={<StatusTag ok>{t("account.security.statusSet")}</StatusTag>}
          description={t("account.security.loginPasswordDesc")}
          action={action(t("common.change"), "/editPassword", false)}
        />
        <SettingRow
          testId="security-row-trade-password"
          icon={<KeyOutlined />}
          title={t("fields.tradePassword")}
          status={
            <StatusTag ok={tradeSet}>
              {tradeSet ? t("account.security.statusSet") : t("common.notSet")}
            </StatusTag>
          }
          description={t("account.security.tradePasswordDesc")}
          action={
            tradeSet
              ? action(t("common.change"), "/editPasswordTrade", false)
              : action(t("common.set"), "/bindmpwd", true)
          }
        />
        <SettingRow
          testId="security-row-email"
          icon={<MailOutlined />}
          title={t("fields.email")}
          status={
            <StatusTag ok={s.email !== ""}>{s.email ? maskEmail(s.email) : t("common.notBound")}</StatusTag>
          }
          description={t("account.security.emailDesc")}
          action={
            s.email ? action(t("common.change"), "/email", false) : action(t("common.bind"), "/email", true)
          }
        />
        <SettingRow
          testId="security-row-phone"
          icon={<MobileOutlined />}
          title={t("fields.phone")}
          status={
            <StatusTag ok={s.phone !== ""}>
              {s.phone ? `+${s.area_code} ${maskPhone(s.phone)}` : t("common.notBound")}
            </StatusTag>
          }
          description={t("account.security.phoneDesc")}
          action={
            s.phone ? action(t("common.change"), "/mobile", false) : action(t("common.bind"), "/mobile", true)
          }
        />
        <SettingRow
          testId="security-row-security-questions"
          icon={<QuestionCircleOutlined />}
          title={t("nav.securityQuestions")}
          status={
            <StatusTag ok={questionsSet}>
              {questionsSet ? t("account.security.statusSet") : t("common.notSet")}
            </StatusTag>
          }
          description={t("account.security.questionsDesc")}
          action={
            questionsSet
              ? action(t("common.change"), "/securityQuestions", false)
              : action(t("common.set"), "/securityQuestions", true)
          }
        />
        <SettingRow
          testId="security-row-google-authenticator"
          icon={<GoogleOutlined />}
          title={t("nav.googleCode")}
          status={
            <StatusTag ok={googleBound}>{t(googleBound ? "common.bound" : "common.notBound")}</StatusTag>
          }
          description={t("account.security.googleDesc")}
          action={action(t(googleBound ? "common.more" : "common.bind"), "/googleCode", false)}
        />
        <SettingRow
          testId="security-row-api-keys"
          icon={<ApiOutlined />}
          title={t("nav.apiKeys")}
          description={t("account.security.apiKeysDesc")}
          action={action(t("common.more"), "/apiKeys", false)}
        />
        <SettingRow
          testId="security-row-wallets"
          icon={<WalletOutlined />}
          title={t("account.security.wallets")}
          description={t("account.security.walletsDesc")}
          action={action(t("common.more"), "/wallet", false)}
        />
      </SettingGroup>
    </Flex>
  );
}

function StatusTag({ ok, children }: { ok: boolean; children: ReactNode }) {
  return (
    <Tag color={ok ? "success" : "default"} variant="filled" style={{ marginInlineEnd: 0 }}>
      {children}
    </Tag>
  );
}

/** A summary of how many protections are on, with a hint to turn on the rest. */
function SecurityLevel({ enabled, total }: { enabled: number; total: number }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const level = enabled >= 5 ? "high" : enabled >= 3 ? "medium" : "low";
  const color = { high: token.colorSuccess, medium: token.colorWarning, low: token.colorError }[level];
  return (
    <Flex
      gap={16}
      align="center"
      style={{
        padding: token.padding,
        borderRadius: token.borderRadiusLG,
        background: token.colorFillQuaternary,
      }}
      data-testid="security-level"
    >
      <SafetyCertificateOutlined style={{ fontSize: 32, color }} aria-hidden />
      <Flex vertical gap={4} style={{ flex: 1, minWidth: 0 }}>
        <Typography.Text strong>
          {t("account.security.level")}: <span style={{ color }}>{t(`account.security.level_${level}`)}</span>
        </Typography.Text>
        <Progress
          percent={Math.round((enabled / total) * 100)}
          showInfo={false}
          strokeColor={color}
          size="small"
        />
        <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
          {enabled < total
            ? t("account.security.levelHint", { enabled, total })
            : t("account.security.levelAll")}
        </Typography.Text>
      </Flex>
    </Flex>
  );
}
