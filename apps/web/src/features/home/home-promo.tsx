import { LineChartOutlined, RocketOutlined, SafetyCertificateOutlined } from "@ant-design/icons";
import { Button, Flex, theme } from "antd";
import { type ReactNode, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useAppNavigate } from "../../lib/navigation.tsx";
import { useIsLoggedIn } from "../../lib/session.ts";
import "./home.css";
import { Text } from "../common/typography.tsx";

interface Slide {
  key: string;
  to: string;
  icon: ReactNode;
  /** two gradient stops, from the theme's palette */
  from: string;
  to2: string;
}

/** Each slide stays this long before the next one shows. */
const SLIDE_MS = 6000;

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

  // A small slider of our own rather than antd's Carousel (react-slick: about 10 KB compressed on the
  // first load). It pauses while pointed at or focused, and does not turn for users who ask for less motion.
  const [shown, setShown] = useState(0);
  const [paused, setPaused] = useState(false);
  const count = slides.length;
  useEffect(() => {
    if (paused || count < 2 || window.matchMedia?.("(prefers-reduced-motion: reduce)").matches) {
      return;
    }
    const timer = setInterval(() => setShown((i) => (i + 1) % count), SLIDE_MS);
    return () => clearInterval(timer);
  }, [paused, count]);
  const current = shown % count;

  return (
    <section
      aria-label={t("market.promo.label")}
      aria-roledescription="carousel"
      data-testid="home-promo"
      className="ns-promo"
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
    >
      <div className="ns-promo-track" style={{ transform: `translateX(${-100 * current}%)` }}>
        {slides.map((s, i) => (
          <div key={s.key} className="ns-promo-slide" aria-hidden={i !== current} inert={i !== current}>
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
                  <Text strong style={{ color: "#fff", fontSize: 18, lineHeight: 1.35 }}>
                    {s.title}
                  </Text>
                  <Text style={{ color: "rgba(255,255,255,0.85)" }}>{s.text}</Text>
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
      </div>
      {count > 1 ? (
        <div className="ns-promo-dots">
          {slides.map((s, i) => (
            <button
              key={s.key}
              type="button"
              aria-label={s.title}
              aria-current={i === current}
              className={i === current ? "ns-promo-dot ns-promo-dot-on" : "ns-promo-dot"}
              onClick={() => setShown(i)}
            />
          ))}
        </div>
      ) : null}
    </section>
  );
}
