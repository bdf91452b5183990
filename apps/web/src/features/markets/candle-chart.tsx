import { type Candle, type CandlePeriod, CHART_PERIODS } from "@northstar/shared/markets";
import { Button, Flex, Spin, Typography, theme } from "antd";
import {
  type CandlestickData,
  CandlestickSeries,
  ColorType,
  createChart,
  type HistogramData,
  HistogramSeries,
  type IChartApi,
  type ISeriesApi,
  type LogicalRange,
  TickMarkType,
  type Time,
  type UTCTimestamp,
} from "lightweight-charts";
import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useKline } from "../../lib/market-socket.ts";
import { createStoredValue, useStoredValue } from "../../lib/store.ts";
import { useTRPCClient } from "../../lib/trpc.ts";
import { ErrorState } from "../common/page-states.tsx";
import type { MarketRow } from "./market-data.ts";
import { useMarketFormat } from "./market-format.ts";

const periodStore = createStoredValue<CandlePeriod>("market.period", "1h", (v): v is CandlePeriod =>
  (CHART_PERIODS as readonly string[]).includes(v),
);

/** Candles per request: the first screen, and each step of scrolling back. */
const PAGE = 300;
/** Bars shown at first; the rest of the page is there to scroll back into. */
const FIRST_VIEW = 120;

/*
 * Candles travel as decimal strings; the chart library draws numbers, so they are converted here, for
 * display only. Times are bucket starts in ms; the chart takes seconds.
 */
const toBar = (c: Candle): CandlestickData<Time> => ({
  time: (c.time / 1000) as UTCTimestamp,
  open: Number(c.open),
  high: Number(c.high),
  low: Number(c.low),
  close: Number(c.close),
});

/** "#52c41a" with an alpha; any other colour form is returned as is. */
function withAlpha(color: string, alpha: number): string {
  if (/^#[0-9a-f]{6}$/i.test(color)) {
    return `${color}${Math.round(alpha * 255)
      .toString(16)
      .padStart(2, "0")}`;
  }
  return color;
}

type Status = "loading" | "ready" | "error";

/**
 * The candlestick chart with volume: periods minute to year (SPEC), history from market.candles,
 * the forming candle live from the socket, more history when scrolled to the left edge. Colours
 * follow the theme; prices use the instrument's display decimals; times are the viewer's local time.
 */
export function CandleChart({ instrument }: { instrument: MarketRow }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const format = useMarketFormat();
  const client = useTRPCClient();
  const period = useStoredValue(periodStore);
  const { symbol, displayDecimals } = instrument;

  const containerRef = useRef<HTMLDivElement>(null);
  const chartRef = useRef<IChartApi | null>(null);
  const candleRef = useRef<ISeriesApi<"Candlestick"> | null>(null);
  const volumeRef = useRef<ISeriesApi<"Histogram"> | null>(null);
  /** The candles on the chart, oldest first, for the period in `loadedRef`. */
  const candlesRef = useRef<Candle[]>([]);
  const loadedRef = useRef<{ symbol: string; period: CandlePeriod } | null>(null);
  /** A live candle that arrived before the history: applied once the history is drawn. */
  const pendingRef = useRef<Candle | null>(null);
  const olderRef = useRef<{ loading: boolean; done: boolean }>({ loading: false, done: false });

  const [status, setStatus] = useState<Status>("loading");
  const [count, setCount] = useState(0);
  const [loadedPeriod, setLoadedPeriod] = useState<CandlePeriod | null>(null);
  const [attempt, setAttempt] = useState(0);

  const up = token.colorSuccess;
  const down = token.colorError;
  const volumeColor = useCallback(
    (c: Candle) => withAlpha(Number(c.close) >= Number(c.open) ? up : down, 0.45),
    [up, down],
  );
  const toVolume = useCallback(
    (c: Candle): HistogramData<Time> => ({
      time: (c.time / 1000) as UTCTimestamp,
      value: Number(c.volume),
      color: volumeColor(c),
    }),
    [volumeColor],
  );
  const toVolumeRef = useRef(toVolume);
  useEffect(() => {
    toVolumeRef.current = toVolume;
  }, [toVolume]);

  // The chart and its two series, created once.
  useEffect(() => {
    const container = containerRef.current;
    if (!container) {
      return;
    }
    const chart = createChart(container, {
      autoSize: true,
      rightPriceScale: { scaleMargins: { top: 0.08, bottom: 0.26 } },
      timeScale: { rightOffset: 4, barSpacing: 8 },
    });
    const candles = chart.addSeries(CandlestickSeries, { priceLineVisible: true });
    const volume = chart.addSeries(HistogramSeries, {
      priceScaleId: "volume",
      priceFormat: { type: "volume" },
      lastValueVisible: false,
      priceLineVisible: false,
    });
    chart.priceScale("volume").applyOptions({ scaleMargins: { top: 0.8, bottom: 0 } });
    chartRef.current = chart;
    candleRef.current = candles;
    volumeRef.current = volume;
    return () => {
      chart.remove();
      chartRef.current = null;
      candleRef.current = null;
      volumeRef.current = null;
      loadedRef.current = null;
    };
  }, []);

  // Theme colours, language and price format.
  useEffect(() => {
    const chart = chartRef.current;
    if (!chart) {
      return;
    }
    const dateTime = (options: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat(format.bcp47, options);
    const intraday = period === "1m" || period === "1h";
    const crosshairTime = intraday
      ? dateTime({ month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", hourCycle: "h23" })
      : period === "1y"
        ? dateTime({ year: "numeric" })
        : period === "1M"
          ? dateTime({ year: "numeric", month: "short" })
          : dateTime({ year: "numeric", month: "short", day: "numeric" });
    const ticks: Record<TickMarkType, Intl.DateTimeFormat> = {
      [TickMarkType.Year]: dateTime({ year: "numeric" }),
      [TickMarkType.Month]: dateTime({ month: "short" }),
      [TickMarkType.DayOfMonth]: dateTime({ month: "numeric", day: "numeric" }),
      [TickMarkType.Time]: dateTime({ hour: "2-digit", minute: "2-digit", hourCycle: "h23" }),
      [TickMarkType.TimeWithSeconds]: dateTime({
        hour: "2-digit",
        minute: "2-digit",
        second: "2-digit",
        hourCycle: "h23",
      }),
    };
    chart.applyOptions({
      layout: {
        background: { type: ColorType.Solid, color: token.colorBgContainer },
        textColor: token.colorTextSecondary,
        fontFamily: token.fontFamily,
        attributionLogo: true,
      },
      grid: {
        vertLines: { color: token.colorSplit },
        horzLines: { color: token.colorSplit },
      },
      rightPriceScale: { borderColor: token.colorBorderSecondary },
      timeScale: {
        borderColor: token.colorBorderSecondary,
        timeVisible: intraday,
        secondsVisible: false,
        tickMarkFormatter: (time: Time, type: TickMarkType) => ticks[type].format((time as number) * 1000),
      },
      crosshair: {
        vertLine: { labelBackgroundColor: token.colorPrimary },
        horzLine: { labelBackgroundColor: token.colorPrimary },
      },
      localization: {
        locale: format.bcp47,
        priceFormatter: (price: number) => format.price(price.toFixed(displayDecimals), displayDecimals),
        timeFormatter: (time: Time) => crosshairTime.format((time as number) * 1000),
      },
    });
    candleRef.current?.applyOptions({
      upColor: up,
      downColor: down,
      borderUpColor: up,
      borderDownColor: down,
      wickUpColor: up,
      wickDownColor: down,
      priceFormat: { type: "price", precision: displayDecimals, minMove: 1 / 10 ** displayDecimals },
    });
    if (candlesRef.current.length > 0) {
      volumeRef.current?.setData(candlesRef.current.map(toVolume));
    }
  }, [token, up, down, displayDecimals, format, period, toVolume]);

  // History of the chosen period: replaces what the chart shows.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is the retry after an error
  useEffect(() => {
    let cancelled = false;
    loadedRef.current = null;
    pendingRef.current = null;
    olderRef.current = { loading: false, done: false };
    setStatus("loading");
    setCount(0);
    setLoadedPeriod(null);
    client.market.candles
      .query({ symbol, period, limit: PAGE })
      .then((candles) => {
        if (cancelled || !candleRef.current || !volumeRef.current || !chartRef.current) {
          return;
        }
        let list = candles;
        const live = pendingRef.current;
        if (live) {
          const last = list[list.length - 1];
          if (!last || live.time > last.time) {
            list = [...list, live];
          } else if (live.time === last.time) {
            list = [...list.slice(0, -1), live];
          }
        }
        candlesRef.current = list;
        candleRef.current.setData(list.map(toBar));
        volumeRef.current.setData(list.map(toVolumeRef.current));
        const n = list.length;
        if (n > FIRST_VIEW) {
          chartRef.current.timeScale().setVisibleLogicalRange({ from: n - FIRST_VIEW, to: n + 4 });
        } else {
          chartRef.current.timeScale().fitContent();
        }
        olderRef.current.done = candles.length < PAGE;
        loadedRef.current = { symbol, period };
        setCount(n);
        setLoadedPeriod(period);
        setStatus("ready");
      })
      .catch(() => {
        if (!cancelled) {
          setStatus("error");
        }
      });
    return () => {
      cancelled = true;
    };
  }, [client, symbol, period, attempt]);

  // The forming candle, live: updates the last bar or starts a new one.
  useKline(symbol, period, (candle) => {
    const loaded = loadedRef.current;
    if (!loaded || loaded.symbol !== symbol || loaded.period !== period) {
      pendingRef.current = candle;
      return;
    }
    const list = candlesRef.current;
    const last = list[list.length - 1];
    if (last && candle.time < last.time) {
      return;
    }
    if (last && candle.time === last.time) {
      list[list.length - 1] = candle;
    } else {
      list.push(candle);
      setCount(list.length);
    }
    candleRef.current?.update(toBar(candle));
    volumeRef.current?.update(toVolume(candle));
  });

  // Scrolled to the left edge: fetch the candles before the oldest one shown.
  useEffect(() => {
    const chart = chartRef.current;
    if (!chart) {
      return;
    }
    const onRange = (range: LogicalRange | null) => {
      const older = olderRef.current;
      const loaded = loadedRef.current;
      const oldest = candlesRef.current[0];
      if (!range || range.from > 10 || older.loading || older.done || !loaded || !oldest) {
        return;
      }
      older.loading = true;
      client.market.candles
        .query({ symbol: loaded.symbol, period: loaded.period, limit: PAGE, before: oldest.time })
        .then((candles) => {
          const current = loadedRef.current;
          if (current !== loaded || !candleRef.current || !volumeRef.current) {
            return;
          }
          older.done = candles.length < PAGE;
          const earlier = candles.filter((c) => c.time < oldest.time);
          if (earlier.length === 0) {
            older.done = true;
            return;
          }
          const visible = chart.timeScale().getVisibleLogicalRange();
          candlesRef.current = [...earlier, ...candlesRef.current];
          candleRef.current.setData(candlesRef.current.map(toBar));
          volumeRef.current.setData(candlesRef.current.map(toVolumeRef.current));
          if (visible) {
            chart.timeScale().setVisibleLogicalRange({
              from: visible.from + earlier.length,
              to: visible.to + earlier.length,
            });
          }
          setCount(candlesRef.current.length);
        })
        .catch(() => undefined)
        .finally(() => {
          older.loading = false;
        });
    };
    chart.timeScale().subscribeVisibleLogicalRangeChange(onRange);
    return () => chart.timeScale().unsubscribeVisibleLogicalRangeChange(onRange);
  }, [client]);

  const empty = status === "ready" && count === 0;
  return (
    <Flex vertical gap={8} data-testid="candle-chart-panel">
      <Flex gap={4} wrap role="group" aria-label={t("market.chart.periodsLabel")} data-testid="chart-periods">
        {CHART_PERIODS.map((p) => (
          <Button
            key={p}
            size="small"
            type={p === period ? "primary" : "text"}
            aria-pressed={p === period}
            onClick={() => periodStore.set(p)}
            data-testid={`chart-period-${p}`}
          >
            {t(`market.chart.periods.${p}`)}
          </Button>
        ))}
      </Flex>
      <div
        style={{ position: "relative", height: "clamp(300px, 52vh, 460px)" }}
        data-testid="candle-chart"
        data-symbol={symbol}
        data-period={loadedPeriod ?? ""}
        data-candles={count}
        data-status={status}
      >
        <div ref={containerRef} style={{ position: "absolute", inset: 0 }} />
        {status !== "ready" || empty ? (
          <Flex
            align="center"
            justify="center"
            style={{
              position: "absolute",
              inset: 0,
              zIndex: 3,
              background: status === "loading" ? "transparent" : token.colorBgContainer,
            }}
          >
            {status === "loading" ? (
              <Spin />
            ) : status === "error" ? (
              <ErrorState message={t("market.chart.loadFailed")} onRetry={() => setAttempt((n) => n + 1)} />
            ) : (
              <Typography.Text type="secondary" data-testid="candle-chart-empty">
                {t("market.chart.noData")}
              </Typography.Text>
            )}
          </Flex>
        ) : null}
      </div>
    </Flex>
  );
}
