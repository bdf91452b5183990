import { Flex, theme } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { AppLink } from "../../lib/navigation.tsx";
import { useBanners } from "../content/use-content-query.ts";
import "./home-banners.css";

const ADVANCE_MS = 6000;

/**
 * The operators' banners as a carousel: one at a time, advancing on its own (paused while hovered
 * or focused), dots to choose. Each opens its article at /bannerDetail. Nothing shows without banners.
 * Loaded after the home page's first paint, with no carousel library.
 */
export function HomeBanners() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const banners = useBanners();
  const list = banners.data ?? [];
  const [index, setIndex] = useState(0);
  const [paused, setPaused] = useState(false);
  const count = list.length;

  useEffect(() => {
    if (count < 2 || paused) {
      return;
    }
    const timer = window.setInterval(() => setIndex((i) => (i + 1) % count), ADVANCE_MS);
    return () => window.clearInterval(timer);
  }, [count, paused]);

  if (count === 0) {
    return null;
  }
  const current = Math.min(index, count - 1);
  return (
    <section
      className="ns-banners"
      aria-roledescription="carousel"
      aria-label={t("nav.banner")}
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
      style={{ borderRadius: token.borderRadiusLG * 2, border: `1px solid ${token.colorBorderSecondary}` }}
      data-testid="home-banners"
    >
      <div className="ns-banners-track" style={{ transform: `translateX(-${current * 100}%)` }}>
        {list.map((b, i) => (
          // Slides out of view are inert: neither focusable nor read out.
          <div key={b.id} className="ns-banner-slide" inert={i !== current} data-testid="home-banner">
            <AppLink to={`/bannerDetail?id=${b.id}`} className="ns-banner">
              <img src={b.image} alt="" loading={i === 0 ? "eager" : "lazy"} />
              <div className="ns-banner-caption">
                <strong>{b.title}</strong>
                {b.summary && <span>{b.summary}</span>}
              </div>
            </AppLink>
          </div>
        ))}
      </div>
      {count > 1 && (
        <Flex className="ns-banner-dots" gap={6} justify="center">
          {list.map((b, i) => (
            <button
              key={b.id}
              type="button"
              aria-label={`${i + 1} / ${count}`}
              aria-current={i === current}
              className={i === current ? "active" : undefined}
              onClick={() => setIndex(i)}
            />
          ))}
        </Flex>
      )}
    </section>
  );
}
