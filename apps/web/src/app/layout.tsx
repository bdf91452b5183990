import { LogoutOutlined, SafetyOutlined, UserOutlined } from "@ant-design/icons";
import { headerName } from "@northstar/shared/display";
import { CONTENT_PAGE } from "@northstar/shared/routes";
import { useQuery } from "@tanstack/react-query";
import { Avatar, Button, Flex, Space, theme } from "antd";
import { lazy, type ReactNode, Suspense } from "react";
import { useTranslation } from "react-i18next";
import { useLocation } from "react-router";
import { HeaderMenu } from "../features/common/header-menu.tsx";
import { LanguageSwitcher, ThemeToggle } from "../features/common/preference-controls.tsx";
import { Paragraph, Text } from "../features/common/typography.tsx";
import { AppLink, useAppNavigate } from "../lib/navigation.tsx";
import { useAvatarSrc } from "../lib/private-file.ts";
import { useLogout, useSession, useSiteSettings } from "../lib/queries.ts";
import { useIsLoggedIn } from "../lib/session.ts";
import { useTRPC } from "../lib/trpc.ts";
import { NAV, navKeyOf } from "./nav-items.ts";
import { TabBar } from "./tab-bar.tsx";

// The unread-messages bell: loaded once someone is signed in, so first loads stay as they were.
const MessageBadge = lazy(() =>
  import("../features/messages/message-badge.tsx").then((m) => ({ default: m.MessageBadge })),
);

// Shown only to demo accounts: loaded when one is signed in.
const DemoBanner = lazy(() =>
  import("../features/demo/demo-banner.tsx").then((m) => ({ default: m.DemoBanner })),
);

export function AppLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const location = useLocation();
  const site = useSiteSettings();
  const session = useSession();
  const selected = navKeyOf(location.pathname);

  return (
    // Plain elements in antd's layout measures (its Layout would add a sider and its styles to
    // every first load).
    <div
      className="ns-shell"
      style={{
        minHeight: "100vh",
        display: "flex",
        flexDirection: "column",
        background: token.colorBgLayout,
      }}
    >
      <header
        style={{
          height: 64,
          position: "sticky",
          top: 0,
          zIndex: 10,
          display: "flex",
          alignItems: "center",
          gap: 16,
          paddingInline: 16,
          background: token.colorBgContainer,
          borderBottom: `1px solid ${token.colorBorderSecondary}`,
        }}
      >
        <AppLink to="/">
          <Flex align="center" gap={8}>
            <img src={site.data?.logo ?? "/logo.svg"} alt="" width={28} height={28} />
            <Text strong className="site-name" style={{ fontSize: 18, whiteSpace: "nowrap" }}>
              {site.data?.name ?? "Northstar"}
            </Text>
          </Flex>
        </AppLink>
        <nav className="ns-main-nav" aria-label={t("nav.mainMenu")} data-testid="main-nav">
          <ul>
            {NAV.map((n) => (
              <li key={n.key}>
                <AppLink to={n.key} aria-current={n.key === selected ? "page" : undefined}>
                  {t(n.label)}
                </AppLink>
              </li>
            ))}
          </ul>
        </nav>
        {/* On phones the menu gives way to the tab bar; this keeps the tools at the end. */}
        <div className="ns-header-spacer" />
        <HeaderTools />
      </header>
      <SimulatedPricesBanner />
      {session.data?.account_kind === "demo" ? (
        <Suspense fallback={null}>
          <DemoBanner />
        </Suspense>
      ) : null}
      <main style={{ flex: "auto" }}>{children}</main>
      <footer style={{ textAlign: "center", padding: "24px 50px", color: token.colorText }}>
        <Space separator="·" wrap style={{ justifyContent: "center" }}>
          <AppLink to={`/text?id=${CONTENT_PAGE.companyProfile}`}>{t("nav.about")}</AppLink>
          <AppLink to={`/text?id=${CONTENT_PAGE.userAgreement}`}>{t("nav.agreement")}</AppLink>
          <AppLink to={`/text?id=${CONTENT_PAGE.privacyTerms}`}>{t("nav.privacy")}</AppLink>
          <AppLink to="/notice">{t("nav.notice")}</AppLink>
          <AppLink to="/proofOfLiabilities">{t("nav.proofs")}</AppLink>
        </Space>
        <Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }}>
          © {new Date().getFullYear()} {site.data?.name ?? "Northstar"} · {t("common.riskWarning")}
        </Paragraph>
      </footer>
      <TabBar />
    </div>
  );
}

/**
 * A slim line under the header on every page while the platform's prices are not a live market's
 * (the simulator, a replay): a sandbox says so, whoever is looking.
 */
function SimulatedPricesBanner() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const trpc = useTRPC();
  const feed = useQuery(trpc.market.feed.queryOptions(undefined, { staleTime: 60_000 }));
  if (!feed.data?.simulated) {
    return null;
  }
  return (
    <div
      role="note"
      data-testid="simulated-prices"
      style={{
        textAlign: "center",
        fontSize: 12,
        lineHeight: "22px",
        paddingInline: 16,
        color: token.colorWarningText,
        background: token.colorWarningBg,
        borderBottom: `1px solid ${token.colorWarningBorder}`,
      }}
    >
      {t("common.simulatedPrices")}
    </div>
  );
}

function HeaderTools() {
  const { t } = useTranslation();
  const loggedIn = useIsLoggedIn();
  const go = useAppNavigate();
  return (
    <Space size="small">
      <LanguageSwitcher />
      <ThemeToggle />
      {loggedIn ? (
        <>
          <Suspense fallback={null}>
            <MessageBadge />
          </Suspense>
          <UserMenu />
        </>
      ) : (
        <>
          <Button type="text" onClick={() => go("/login")} data-testid="header-login">
            {t("nav.login")}
          </Button>
          <Button type="primary" onClick={() => go("/register")} data-testid="header-register">
            {t("nav.register")}
          </Button>
        </>
      )}
    </Space>
  );
}

function UserMenu() {
  const { t } = useTranslation();
  const session = useSession();
  const logout = useLogout();
  const go = useAppNavigate();
  const avatar = useAvatarSrc(session.data);
  return (
    <HeaderMenu
      label={t("nav.profile")}
      items={[
        { key: "/info", icon: <UserOutlined />, label: t("nav.profile") },
        { key: "/security", icon: <SafetyOutlined />, label: t("nav.security") },
        {
          key: "logout",
          icon: <LogoutOutlined />,
          label: t("common.logout"),
          danger: true,
          dividerBefore: true,
          testId: "user-menu-logout",
        },
      ]}
      onSelect={(key) => {
        if (key === "logout") {
          logout.mutate();
        } else {
          go(key);
        }
      }}
      renderButton={({ toggle, open: _open, ...aria }) => (
        <Button type="text" data-testid="user-menu" onClick={toggle} {...aria} style={{ paddingInline: 4 }}>
          <Avatar size="small" src={avatar} icon={<UserOutlined />} />
          <span
            className="header-user-label"
            style={{ maxWidth: 120, overflow: "hidden", textOverflow: "ellipsis" }}
          >
            {session.data ? headerName(session.data) : ""}
          </span>
        </Button>
      )}
    />
  );
}
