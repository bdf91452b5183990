import {
  BankOutlined,
  BgColorsOutlined,
  FileProtectOutlined,
  FileTextOutlined,
  GiftOutlined,
  GlobalOutlined,
  InfoCircleOutlined,
  LogoutOutlined,
  MoonOutlined,
  NotificationOutlined,
  SafetyOutlined,
  ShareAltOutlined,
  SunOutlined,
  UserOutlined,
} from "@ant-design/icons";
import { LANGUAGE_INFO, LANGUAGES, type Language } from "@northstar/shared/languages";
import { CONTENT_PAGE } from "@northstar/shared/routes";
import { useMutation } from "@tanstack/react-query";
import { Avatar, Button, Flex, Segmented, Select, Skeleton, Typography, theme } from "antd";
import { useTranslation } from "react-i18next";
import { setLanguage } from "../../i18n/index.ts";
import { feedback } from "../../lib/feedback.ts";
import { AppLink, useAppNavigate } from "../../lib/navigation.tsx";
import { useAvatarSrc } from "../../lib/private-file.ts";
import { useLogout, useSession, useSiteSettings } from "../../lib/queries.ts";
import { themeStore, useIsLoggedIn, useLanguage, useThemeMode } from "../../lib/session.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { Page } from "../common/page.tsx";
import { SettingGroup, SettingRow } from "./setting-row.tsx";

/** /setting, /settingNew, /setting-newdetail: the "Me" hub with the profile, preferences and documents. */
export function SettingsPage() {
  const { t } = useTranslation();
  const loggedIn = useIsLoggedIn();
  return (
    <Page title={t("nav.me")} width={680}>
      <Flex vertical gap={8}>
        {loggedIn ? <ProfileCard /> : <GuestCard />}
        {loggedIn && (
          <SettingGroup title={t("account.settings.account")}>
            <SettingRow
              to="/info"
              icon={<UserOutlined />}
              title={t("nav.profile")}
              description={t("account.settings.profileDesc")}
              testId="settings-profile"
            />
            <SettingRow
              to="/security"
              icon={<SafetyOutlined />}
              title={t("nav.security")}
              description={t("account.settings.securityDesc")}
              testId="settings-security"
            />
            <SettingRow
              to="/repayment2"
              icon={<BankOutlined />}
              title={t("nav.loans")}
              testId="settings-loans"
            />
            <SettingRow to="/c2c_index" icon={<BankOutlined />} title={t("nav.c2c")} testId="settings-c2c" />
            <SettingRow
              to="/invite"
              icon={<ShareAltOutlined />}
              title={t("nav.invite")}
              testId="settings-invite"
            />
            <SettingRow
              to="/benefits"
              icon={<GiftOutlined />}
              title={t("nav.benefits")}
              testId="settings-benefits"
            />
          </SettingGroup>
        )}
        <Preferences loggedIn={loggedIn} />
        <SettingGroup title={t("account.settings.about")}>
          <SettingRow
            to={`/text?id=${CONTENT_PAGE.companyProfile}`}
            icon={<InfoCircleOutlined />}
            title={t("nav.about")}
            testId="settings-about"
          />
          <SettingRow
            to={`/text?id=${CONTENT_PAGE.userAgreement}`}
            icon={<FileTextOutlined />}
            title={t("nav.agreement")}
            testId="settings-agreement"
          />
          <SettingRow
            to={`/text?id=${CONTENT_PAGE.privacyTerms}`}
            icon={<FileProtectOutlined />}
            title={t("nav.privacy")}
            testId="settings-privacy"
          />
          <SettingRow
            to="/notice"
            icon={<NotificationOutlined />}
            title={t("nav.notice")}
            testId="settings-notice"
          />
        </SettingGroup>
        {loggedIn && <LogoutButton />}
      </Flex>
    </Page>
  );
}

function ProfileCard() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const session = useSession();
  const s = session.data;
  const avatar = useAvatarSrc(s);
  return (
    <AppLink to="/info" className="ns-setting-row-link">
      <Flex
        align="center"
        gap={16}
        style={{ paddingBlock: token.padding, color: token.colorText }}
        data-testid="settings-profile-card"
      >
        <Avatar
          size={64}
          src={avatar}
          icon={<UserOutlined />}
          style={{
            flex: "none",
            background: s?.avatar ? undefined : token.colorPrimaryBg,
            color: token.colorPrimary,
          }}
        />
        {s ? (
          <Flex vertical gap={2} style={{ minWidth: 0, flex: 1 }}>
            <Typography.Text strong ellipsis style={{ fontSize: token.fontSizeLG }}>
              {s.nickname || s.display_account}
            </Typography.Text>
            <Typography.Text type="secondary" ellipsis>
              {s.display_account}
            </Typography.Text>
            <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
              {t("account.profile.uid")}: <span data-testid="settings-uid">{s.uid}</span>
            </Typography.Text>
          </Flex>
        ) : (
          <Skeleton active title={false} paragraph={{ rows: 2 }} style={{ flex: 1 }} />
        )}
        <Typography.Text type="secondary" style={{ flex: "none" }}>
          {t("common.edit")}
        </Typography.Text>
      </Flex>
    </AppLink>
  );
}

function GuestCard() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const go = useAppNavigate();
  const site = useSiteSettings();
  return (
    <Flex
      vertical
      align="center"
      gap={12}
      style={{
        padding: token.paddingLG,
        borderRadius: token.borderRadiusLG,
        background: token.colorFillQuaternary,
        textAlign: "center",
      }}
      data-testid="settings-guest"
    >
      <Avatar
        size={56}
        icon={<UserOutlined />}
        style={{ background: token.colorPrimaryBg, color: token.colorPrimary }}
      />
      <Typography.Text strong style={{ fontSize: token.fontSizeLG }}>
        {t("account.settings.guestTitle", { site: site.data?.name ?? "Northstar" })}
      </Typography.Text>
      <Typography.Text type="secondary">{t("account.settings.guestText")}</Typography.Text>
      <Flex gap={8} wrap justify="center">
        <Button type="primary" onClick={() => go("/login")} data-testid="settings-login">
          {t("nav.login")}
        </Button>
        <Button onClick={() => go("/register")} data-testid="settings-register">
          {t("nav.register")}
        </Button>
      </Flex>
    </Flex>
  );
}

function Preferences({ loggedIn }: { loggedIn: boolean }) {
  const { t } = useTranslation();
  const lang = useLanguage();
  const mode = useThemeMode();
  const trpc = useTRPC();
  // The account remembers its language too, so server messages (mail, notices) use it.
  const saveLanguage = useMutation(trpc.identity.updateLanguage.mutationOptions());

  const changeLanguage = (next: Language) => {
    // Never rejects: a language pack that fails to load leaves the language as it was.
    void setLanguage(next);
    if (loggedIn) {
      saveLanguage.mutate({ language: next });
    }
  };

  return (
    <SettingGroup title={t("account.settings.preferences")}>
      <SettingRow
        icon={<GlobalOutlined />}
        title={t("common.language")}
        action={
          <Select<Language>
            value={lang}
            onChange={changeLanguage}
            options={LANGUAGES.map((l) => ({ value: l, label: LANGUAGE_INFO[l].nativeName }))}
            style={{ width: 140 }}
            popupMatchSelectWidth={false}
            aria-label={t("common.language")}
            data-testid="settings-language"
          />
        }
      />
      <SettingRow
        icon={<BgColorsOutlined />}
        title={t("common.theme")}
        action={
          <Segmented
            value={mode}
            onChange={(value) => themeStore.set(value)}
            aria-label={t("common.theme")}
            options={[
              {
                value: "light" as const,
                icon: <SunOutlined />,
                label: <span data-testid="settings-theme-light">{t("common.light")}</span>,
              },
              {
                value: "dark" as const,
                icon: <MoonOutlined />,
                label: <span data-testid="settings-theme-dark">{t("common.dark")}</span>,
              },
            ]}
          />
        }
      />
    </SettingGroup>
  );
}

function LogoutButton() {
  const { t } = useTranslation();
  const logout = useLogout();
  const go = useAppNavigate();
  return (
    <Button
      danger
      block
      size="large"
      icon={<LogoutOutlined />}
      loading={logout.isPending}
      style={{ marginTop: 16 }}
      onClick={() =>
        logout.mutate(undefined, {
          onSettled: () => {
            feedback.info(t("common.loggedOut"));
            go("/login");
          },
        })
      }
      data-testid="settings-logout"
    >
      {t("common.logout")}
    </Button>
  );
}
