import { Flex, theme } from "antd";
import { useTickerValue } from "../../lib/market-socket.ts";
import { CurrencyMark } from "../assets/currency-mark.tsx";
import { type MarketRow, pairName } from "./market-data.ts";
import { ClosedTag } from "./market-status-tags.tsx";
import "./markets.css";
import { Text } from "../common/typography.tsx";

/** Base/quote in bold with the instrument's name under it, and "closed" when its market is. */
export function PairLabel({
  row,
  size = 28,
  maxWidth = 200,
}: {
  row: MarketRow;
  size?: number;
  /** the name is cut with an ellipsis beyond this, so a long name cannot widen a table column */
  maxWidth?: number;
}) {
  const { token } = theme.useToken();
  const open = useTickerValue(row.symbol, row.ticker, (t) => t.x) ?? row.open;
  return (
    <Flex align="center" gap={10} style={{ minWidth: 0 }}>
      <CurrencyMark code={row.base} size={size} />
      <Flex vertical style={{ minWidth: 0, maxWidth }}>
        <Flex align="center" gap={6} wrap={false}>
          <Text strong style={{ lineHeight: 1.3, whiteSpace: "nowrap" }}>
            {pairName(row)}
          </Text>
          {!open && <ClosedTag />}
        </Flex>
        <Text type="secondary" ellipsis style={{ fontSize: token.fontSizeSM, lineHeight: 1.3 }}>
          {row.name}
        </Text>
      </Flex>
    </Flex>
  );
}
