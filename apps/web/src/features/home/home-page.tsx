import {
  DownloadOutlined,
  RightOutlined,
  SafetyOutlined,
  SettingOutlined,
  SoundOutlined,
  UserOutlined,
  WalletOutlined,
} from "@ant-design/icons";
import { Button, Col, Flex, Grid, Row, Skeleton, theme } from "antd";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { AppLink, useAppNavigate } from "../../lib/navigation.tsx";
import { useSession, useSiteSettings, useTexts } from "../../lib/queries.ts";
import { useIsLoggedIn } from "../../lib/session.ts";
import { EmptyState, ErrorState } from "../common/page-states.tsx";
import { Panel } from "../common/panel.tsx";
import { Paragraph, Text, TextLink, Title } from "../common/typography.tsx";
import { ArticleList } from "../content/article-list.tsx";
import { HomeBanners } from "./home-banners.tsx";
import { HomeFigures } from "./home-figures.tsx";
import { HomeMarkets } from "./home-markets.tsx";
import { HomePromo } from "./home-promo.tsx";

/** / and /index: welcome, the operators' banners, the latest announcements, the market table with live prices, promotions and the latest news. */
export function HomePage() {
  const { token } = theme.useToken();
  return (
    <Flex
      vertical
      gap={token.marginLG}
      style={{ maxWidth: 1200, margin: "0 auto", padding: `${token.paddingLG}px 16px` }}
      data-testid="home"
    >
      <Hero />
      <HomeBanners />
      <AnnouncementStrip />
      <Row gutter={[token.marginLG, token.marginLG]}>
        <Col xs={24} lg={15}>
          <HomeMarkets />
        </Col>
        <Col xs={24} lg={9}>
          <Flex vertical gap={token.marginLG} style={{ height: "100%" }}>
            <HomePromo />
            <LatestNews />
          </Flex>
        </Col>
      </Row>
    </Flex>
  );
}

function Hero() {
  const { token } = theme.useToken();
  const loggedIn = useIsLoggedIn();
  const site = useSiteSettings();
  const siteName = site.data?.name ?? "Northstar";
  return (
    <section
      style={{
        borderRadius: token.borderRadiusLG * 2,
        border: `1px solid ${token.colorBorderSecondary}`,
        background: `linear-gradient(135deg, ${token.colorPrimaryBg} 0%, ${token.colorBgContainer} 70%)`,
        padding: "clamp(24px, 5vw, 56px)",
      }}
      data-testid="home-hero"
    >
      <Row gutter={[32, 32]} align="middle">
        <Col xs={24} md={14}>
          {loggedIn ? <Welcome /> : <Pitch siteName={siteName} />}
        </Col>
        <Col xs={24} md={10}>
          <HomeFigures />
        </Col>
      </Row>
    </section>
  );
}

function Pitch({ siteName }: { siteName: string }) {
  const { t } = useTranslation();
  const go = useAppNavigate();
  return (
    <Flex vertical gap={8} align="flex-start">
      <Title level={1} style={{ margin: 0, fontSize: "clamp(28px, 5vw, 44px)" }}>
        {t("content.home.heroTitle", { site: siteName })}
      </Title>
      <Paragraph type="secondary" style={{ fontSize: 16, maxWidth: 520 }}>
        {t("content.home.tagline")}
      </Paragraph>
      <Flex gap={12} wrap>
        <Button type="primary" size="large" onClick={() => go("/register")} data-testid="home-register">
          {t("nav.register")}
        </Button>
        <Button size="large" onClick={() => go("/login")} data-testid="home-login">
          {t("nav.login")}
        </Button>
      </Flex>
    </Flex>
  );
}

/**
 * The signed-in hero: asks for a transaction password (the security centre first) until one is set,
 * then points to deposits and assets instead.
 */
function Welcome() {
  const { t } = useTranslation();
  const go = useAppNavigate();
  const session = useSession();
  const name = session.data?.nickname || session.data?.display_account;
  const secured = session.data?.transaction_password === 1;
  return (
    <Flex vertical gap={8} align="flex-start">
      <Title level={1} style={{ margin: 0, fontSize: "clamp(26px, 4.5vw, 40px)" }}>
        {name ? t("content.home.welcomeBack", { name }) : t("content.home.welcome")}
      </Title>
      <Paragraph
        type="secondary"
        style={{ fontSize: 16, maxWidth: 520 }}
        data-testid="home-welcome-text"
        data-secured={session.data ? String(secured) : undefined}
      >
        {secured ? t("content.home.welcomeSecured") : t("content.home.welcomeText")}
      </Paragraph>
      <Flex gap={12} wrap>
        {secured && (
          <Button
            type="primary"
            icon={<DownloadOutlined />}
            onClick={() => go("/authenticationrj")}
            data-testid="home-deposit"
          >
            {t("nav.deposit")}
          </Button>
        )}
        {secured && (
          <Button icon={<WalletOutlined />} onClick={() => go("/table1")} data-testid="home-assets">
            {t("nav.assets")}
          </Button>
        )}
        <Button
          type={secured ? "default" : "primary"}
          icon={<SafetyOutlined />}
          onClick={() => go("/security")}
          data-testid="home-security"
        >
          {t("nav.security")}
        </Button>
        {!secured && (
          <Button icon={<UserOutlined />} onClick={() => go("/info")} data-testid="home-profile">
            {t("nav.profile")}
          </Button>
        )}
        {!secured && (
          <Button icon={<SettingOutlined />} onClick={() => go("/setting")}>
            {t("nav.settings")}
          </Button>
        )}
      </Flex>
    </Flex>
  );
}

function AnnouncementStrip() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const screens = Grid.useBreakpoint();
  const texts = useTexts({ kind: "announcement", page: 1, pageSize: 3 });
  const shown = texts.data?.list.slice(0, screens.md ? 3 : 1) ?? [];

  let content: ReactNode;
  if (texts.isPending) {
    content = <Skeleton.Input active size="small" block />;
  } else if (texts.isError) {
    content = (
      <TextLink onClick={() => void texts.refetch()}>
        {t("common.loadFailed")} · {t("common.retry")}
      </TextLink>
    );
  } else if (shown.length === 0) {
    content = <Text type="secondary">{t("content.home.noAnnouncements")}</Text>;
  } else {
    content = (
      <Flex gap={24} style={{ minWidth: 0 }}>
        {shown.map((item) => (
          <div key={item.id} style={{ flex: "0 1 auto", minWidth: 0 }}>
            <AppLink to={`/text?id=${item.id}`}>
              <Text ellipsis style={{ display: "block", color: "inherit" }} data-testid="home-announcement">
                {item.title}
              </Text>
            </AppLink>
          </div>
        ))}
      </Flex>
    );
  }

  return (
    <Flex
      align="center"
      gap={12}
      style={{
        padding: `${token.paddingSM}px ${token.padding}px`,
        borderRadius: token.borderRadiusLG,
        background: token.colorBgContainer,
        border: `1px solid ${token.colorBorderSecondary}`,
      }}
      data-testid="home-announcements"
    >
      <SoundOutlined
        style={{ color: token.colorPrimary, fontSize: 18, flex: "none" }}
        aria-label={t("content.notice.announcements")}
      />
      <div style={{ flex: 1, minWidth: 0 }}>{content}</div>
      <AppLink to="/notice?tab=announcement">
        <Flex align="center" gap={4} style={{ flex: "none", whiteSpace: "nowrap" }}>
          {t("common.more")}
          <RightOutlined style={{ fontSize: 10 }} />
        </Flex>
      </AppLink>
    </Flex>
  );
}

function LatestNews() {
  const { t } = useTranslation();
  const texts = useTexts({ kind: "news", page: 1, pageSize: 5 });
  return (
    <Panel
      title={t("content.home.latestNews")}
      extra={<AppLink to="/notice?tab=news">{t("common.more")}</AppLink>}
      style={{ flex: 1 }}
      testId="home-news"
    >
      {texts.isPending ? (
        <Skeleton active paragraph={{ rows: 6 }} />
      ) : texts.isError ? (
        <ErrorState onRetry={() => void texts.refetch()} />
      ) : texts.data.list.length === 0 ? (
        <EmptyState>{t("content.notice.emptyNews")}</EmptyState>
      ) : (
        <ArticleList items={texts.data.list} summary={false} />
      )}
    </Panel>
  );
}
