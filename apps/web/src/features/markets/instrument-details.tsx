import { leverageOffered, liveKinds, type TradingHours } from "@northstar/shared/markets";
import { Card, Descriptions, Flex, Grid, Tag, Typography } from "antd";
import { useTranslation } from "react-i18next";
import type { MarketRow } from "./market-data.ts";
import { useMarketFormat } from "./market-format.ts";

/** Tick and lot size, leverage (when offered), the trading types offered today, and hours. */
export function InstrumentDetails({ instrument }: { instrument: MarketRow }) {
  const { t } = useTranslation();
  const screens = Grid.useBreakpoint();
  return (
    <Card size="small" title={t("market.instrument.info")} data-testid="instrument-details">
      <Descriptions
        size="small"
        column={screens.md ? 2 : 1}
        items={[
          { key: "tick", label: t("market.instrument.tickSize"), children: instrument.tickSize },
          { key: "lot", label: t("market.instrument.lotSize"), children: instrument.lotSize },
          { key: "min", label: t("market.instrument.minQty"), children: instrument.minQty },
          // Leverage and contract terms only once a leveraged product exists.
          ...(leverageOffered()
            ? [
                {
                  key: "leverage",
                  label: t("market.instrument.maxLeverage"),
                  children: t("market.instrument.leverageValue", { n: instrument.maxLeverage }),
                },
              ]
            : []),
          {
            key: "kinds",
            label: t("market.instrument.kinds"),
            children: (
              <Flex gap={4} wrap data-testid="instrument-kinds">
                {liveKinds(instrument.kinds).map((k) => (
                  <Tag key={k} style={{ marginInlineEnd: 0 }}>
                    {t(`market.instrument.kind.${k}`)}
                  </Tag>
                ))}
              </Flex>
            ),
          },
          {
            key: "hours",
            label: t("market.instrument.tradingHours"),
            children: <Hours hours={instrument.tradingHours} />,
          },
        ]}
      />
    </Card>
  );
}

/** Weekly sessions in the venue's time zone: "Mon–Fri 09:30–16:00 · Time zone: America/New_York". */
function Hours({ hours }: { hours: TradingHours }) {
  const { t } = useTranslation();
  const format = useMarketFormat();
  if (hours.sessions.length === 0) {
    return <span>{t("market.instrument.alwaysOpen")}</span>;
  }
  const days = (list: number[]) => {
    const sorted = [...list].sort((a, b) => a - b);
    const first = sorted[0] ?? 0;
    const last = sorted[sorted.length - 1] ?? 0;
    const consecutive = sorted.length > 2 && last - first === sorted.length - 1;
    return consecutive
      ? `${format.weekday(first)}–${format.weekday(last)}`
      : sorted.map((d) => format.weekday(d)).join(", ");
  };
  return (
    <Flex vertical gap={2}>
      {hours.sessions.map((s) => (
        <span key={`${s.days.join()}-${s.open}-${s.close}`}>
          {t("market.instrument.session", { days: days(s.days), open: s.open, close: s.close })}
        </span>
      ))}
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t("market.instrument.timeZone", { zone: hours.timeZone })}
      </Typography.Text>
    </Flex>
  );
}
