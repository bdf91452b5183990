import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { AppLink } from "../../lib/navigation.tsx";
import { useLanguage } from "../../lib/session.ts";
import { useTRPCClient } from "../../lib/trpc.ts";
import "./home-banners.css";

const ADVANCE_MS = 6000;

/** Banners showing now, in the interface language (part of the key, so a switch fetches again). */
function useBanners() {
  const client = useTRPCClient();
  const lang = useLanguage();
  return useQuery({
    queryKey: ["content.banners", lang],
    queryFn: () => client.content.banners.query(),
    staleTime: 60_000,
  });
}

/**
 * The operators' banners as a carousel: one at a time, advancing on its own; choosing a dot
 * restarts the timer. Each opens its article at /bannerDetail. Nothing shows without banners.
 * No carousel library: the home page's first load is held to its budget.
 */
export function HomeBanners() {
  const { t } = useTranslation();
  const banners = useBanners();
  const list = banners.data ?? [];
  const [index, setIndex] = useState(0);
  const count = list.length;

  useEffect(() => {
    if (count < 2) {
      return;
    }
    const timer = window.setTimeout(() => setIndex((index + 1) % count), ADVANCE_MS);
    return () => window.clearTimeout(timer);
  }, [count, index]);

  if (count === 0) {
    return null;
  }
  const current = Math.min(index, count - 1);
  return (
    <section
      className="ns-banners"
      aria-roledescription="carousel"
      aria-label={t("nav.banner")}
      data-testid="home-banners"
    >
      <div className="ns-banners-track" style={{ transform: `translateX(-${current * 100}%)` }}>
        {list.map((b, i) => (
          // Slides out of view are inert: neither focusable nor read out.
          <div key={b.id} className="ns-banner-slide" inert={i !== current} data-testid="home-banner">
            <AppLink to={`/bannerDetail?id=${b.id}`} className="ns-banner">
              <img src={b.image} alt="" />
              <div className="ns-banner-caption">
                <strong>{b.title}</strong>
              </div>
            </AppLink>
          </div>
        ))}
      </div>
      {count > 1 && (
        <div className="ns-banner-dots">
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
        </div>
      )}
    </section>
  );
}
