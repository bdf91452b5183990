import { useTranslation } from "react-i18next";
import { useSocketStatus } from "../../lib/market-socket.ts";
import { indicatorState } from "./market-status.ts";
import "./markets.css";

export function ClosedTag() {
  const { t } = useTranslation();
  // A small grey label, drawn here rather than with antd's Tag (about 3 KB compressed on first load).
  return (
    <span className="ns-closed-tag" data-testid="market-closed">
      {t("market.closed")}
    </span>
  );
}

/**
 * A green dot while the socket is connected, orange while it (re)connects; for a market outside its
 * trading hours (`closed`), a grey dot and "last price", since no price is moving.
 */
export function LiveIndicator({ closed = false }: { closed?: boolean }) {
  const { t } = useTranslation();
  const status = indicatorState(!closed, useSocketStatus());
  if (status === "market-closed") {
    return (
      <span className="ns-live" data-testid="market-live" data-status="market-closed">
        <span className="ns-live-dot" aria-hidden />
        {t("market.live.lastPrice")}
      </span>
    );
  }
  // A dot and a word, drawn here rather than with antd's Badge (about 3 KB compressed on every first load).
  return (
    <span className="ns-live" data-testid="market-live" data-status={status}>
      <span className={status === "open" ? "ns-live-dot ns-live-open" : "ns-live-dot"} aria-hidden />
      {t(`market.live.${status}`)}
    </span>
  );
}
