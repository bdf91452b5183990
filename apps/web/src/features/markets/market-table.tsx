import { Flex, Grid } from "antd";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useTickerValue } from "../../lib/market-socket.ts";
import { AppLink, useAppNavigate } from "../../lib/navigation.tsx";
import { Text } from "../common/typography.tsx";
import { FavouriteStar } from "./favourite-star.tsx";
import { LiveChange, LivePrice, LiveVolume } from "./live-figures.tsx";
import type { MarketRow } from "./market-data.ts";
import { useMarketFormat } from "./market-format.ts";
import { PairLabel } from "./pair-label.tsx";

/** The instrument page of a symbol. */
export const instrumentPath = (symbol: string) => `/currency?symbol=${encodeURIComponent(symbol)}`;

/** The contract trade screen of a symbol (the Contract tab's rows lead there). */
export const contractPath = (symbol: string) => `/preciousMetal?symbol=${encodeURIComponent(symbol)}`;

function LiveStat({ row, field }: { row: MarketRow; field: "h" | "l" }) {
  const value = useTickerValue(row.symbol, row.ticker, (t) => t[field]);
  const format = useMarketFormat();
  return value !== undefined ? (
    <span style={{ fontVariantNumeric: "tabular-nums", whiteSpace: "nowrap" }}>
      {format.price(value, row.displayDecimals)}
    </span>
  ) : (
    <Text type="secondary">—</Text>
  );
}

/** A column: its header, alignment and cell. */
interface Column {
  key: string;
  title?: string;
  align?: "right";
  width?: number;
  render: (row: MarketRow) => ReactNode;
}

/**
 * Instruments with live prices: pair, last price, 24h change and volume (and, on the market page,
 * the favourite star and 24h high/low). Every price cell listens to its own symbol only, so a tick
 * re-renders one cell, not the table. A row opens the instrument page (or `pathOf`: the Contract tab's
 * rows open the contract trade screen).
 *
 * A plain table rather than antd's: the home page shows it on first load, and antd's table (with
 * its tree, pagination and select) would add about 60 KB compressed to that load. Paging, where a
 * page needs it, sits under the table (the market page).
 */
export function MarketTable({
  rows,
  loading,
  empty,
  favourites = false,
  extended = false,
  testId,
  pathOf = instrumentPath,
}: {
  rows: MarketRow[];
  loading?: boolean;
  empty: ReactNode;
  /** show the favourite star */
  favourites?: boolean;
  /** show 24h high and low (wide screens) */
  extended?: boolean;
  testId?: string;
  /** where a row leads (the instrument page by default) */
  pathOf?: (symbol: string) => string;
}) {
  const { t } = useTranslation();
  const go = useAppNavigate();
  const screens = Grid.useBreakpoint();
  const narrow = !screens.sm;

  const columns: Column[] = [
    ...(favourites
      ? [{ key: "favourite", width: 40, render: (row: MarketRow) => <FavouriteStar symbol={row.symbol} /> }]
      : []),
    {
      key: "pair",
      title: t("market.columns.pair"),
      render: (row) => (
        <AppLink to={pathOf(row.symbol)} className="ns-pair-link">
          <PairLabel row={row} size={narrow ? 24 : 28} maxWidth={narrow ? 130 : 200} />
        </AppLink>
      ),
    },
    {
      key: "last",
      title: t("market.columns.last"),
      align: "right",
      render: (row) => (
        <Flex vertical align="flex-end" gap={2}>
          <LivePrice
            symbol={row.symbol}
            decimals={row.displayDecimals}
            fallback={row.ticker}
            style={{ fontWeight: 600 }}
            testId={`market-price-${row.symbol}`}
          />
          {narrow && <LiveChange symbol={row.symbol} fallback={row.ticker} />}
        </Flex>
      ),
    },
    ...(narrow
      ? []
      : [
          {
            key: "change",
            title: t("market.columns.change"),
            align: "right" as const,
            render: (row: MarketRow) => (
              <LiveChange
                symbol={row.symbol}
                fallback={row.ticker}
                pill
                testId={`market-change-${row.symbol}`}
              />
            ),
          },
        ]),
    ...(extended && screens.lg
      ? [
          {
            key: "high",
            title: t("market.columns.high"),
            align: "right" as const,
            render: (row: MarketRow) => <LiveStat row={row} field="h" />,
          },
          {
            key: "low",
            title: t("market.columns.low"),
            align: "right" as const,
            render: (row: MarketRow) => <LiveStat row={row} field="l" />,
          },
        ]
      : []),
    ...(screens.md
      ? [
          {
            key: "volume",
            title: t("market.columns.volume"),
            align: "right" as const,
            render: (row: MarketRow) => <LiveVolume row={row} />,
          },
        ]
      : []),
  ];

  return (
    <div
      className="ns-market-table"
      data-size={narrow ? "small" : "middle"}
      data-testid={testId}
      aria-busy={loading}
    >
      <table>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.key} style={{ textAlign: c.align ?? "start", width: c.width }}>
                {c.title}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 ? (
            <tr>
              <td colSpan={columns.length}>{empty}</td>
            </tr>
          ) : (
            rows.map((row) => (
              <tr
                key={row.symbol}
                className="ns-market-row"
                data-testid={`market-row-${row.symbol}`}
                // The pair is a link and the star a button; a click anywhere else in the row opens the instrument too.
                onClick={(e) => {
                  if (!(e.target as HTMLElement).closest("a, button")) {
                    go(pathOf(row.symbol));
                  }
                }}
              >
                {columns.map((c) => (
                  <td key={c.key} style={{ textAlign: c.align ?? "start" }}>
                    {c.render(row)}
                  </td>
                ))}
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}
