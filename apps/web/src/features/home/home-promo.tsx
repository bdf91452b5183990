import { LineChartOutlined, RocketOutlined, SafetyCertificateOutlined } from "@ant-design/icons";
import { Button, Carousel, Flex, Typography, theme } from "antd";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useAppNavigate } from "../../lib/navigation.tsx";
import { useIsLoggedIn } from "../../lib/session.ts";

interface Slide {
  key: string;
  to: string;
  icon: ReactNode;
  /** two gradient stops, from the theme's palette */
  from: string;
  to2: string;
}

/**
 * Promotion slides. The content module has no banner kind, so the home page carries its own:
 * markets, signing up (visitors only) and security, each linking to its page.
 */
export function HomePromo() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const loggedIn = useIsLoggedIn();
  const go = useAppNavigate();
  const slides: (Slide & { title: string; text: string; cta: string })[] = [
    {
      key: "markets",
      to: "/market",
      icon: <LineChartOutlined />,
      from: token.blue7,
      to2: token.blue5,
      title: t("market.promo.marketsTitle"),
      text: t("market.promo.marketsText"),
      cta: t("market.promo.marketsCta"),
    },
    ...(loggedIn
      ? []
      : [
          {
            key: "register",
            to: "/register",
            icon: <RocketOutlined />,
            from: token.purple7,
            to2: token.geekblue5,
            title: t("market.promo.registerTitle"),
            text: t("market.promo.registerText"),
            cta: t("market.promo.registerCta"),
          },
        ]),
    {
      key: "security",
      to: "/security",
      icon: <SafetyCertificateOutlined />,
      from: token.cyan8,
      to2: token.green6,
      title: t("market.promo.secureTitle"),
      text: t("market.promo.secureText"),
      cta: t("market.promo.secureCta"),
    },
  ];

  return (
    <section aria-label={t("market.promo.label")} data-testid="home-promo">
      <Carousel autoplay autoplaySpeed={6000}>
        {slides.map((s) => (
          <div key={s.key}>
            <Flex
              vertical
              justify="space-between"
              gap={12}
              style={{
                minHeight: 188,
                padding: "20px 22px 34px",
                borderRadius: token.borderRadiusLG,
                background: `linear-gradient(135deg, ${s.from} 0%, ${s.to2} 100%)`,
                color: "#fff",
              }}
              data-testid={`home-promo-${s.key}`}
            >
              <Flex gap={12} align="flex-start">
                <span style={{ fontSize: 28, lineHeight: 1, opacity: 0.9 }} aria-hidden>
                  {s.icon}
                </span>
                <Flex vertical gap={4} style={{ minWidth: 0 }}>
                  <Typography.Text strong style={{ color: "#fff", fontSize: 18, lineHeight: 1.35 }}>
                    {s.title}
                  </Typography.Text>
                  <Typography.Text style={{ color: "rgba(255,255,255,0.85)" }}>{s.text}</Typography.Text>
                </Flex>
              </Flex>
              <div>
                <Button
                  onClick={() => go(s.to)}
                  style={{ background: "#fff", color: s.from, borderColor: "#fff", fontWeight: 600 }}
                >
                  {s.cta}
                </Button>
              </div>
            </Flex>
          </div>
        ))}
      </Carousel>
    </section>
  );
}
