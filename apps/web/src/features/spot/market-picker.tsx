import { CaretDownOutlined } from "@ant-design/icons";
import { Button, Flex, Popover, Skeleton } from "antd";
import { lazy, Suspense, useState } from "react";
import { useTranslation } from "react-i18next";
import { Title } from "../common/typography.tsx";
import { type MarketRow, pairName } from "../markets/market-data.ts";

// The list (with its search input) loads when the picker first opens.
const MarketList = lazy(() => import("./market-picker-list.tsx").then((m) => ({ default: m.MarketList })));

/**
 * The pair's name as a button that opens the list of spot markets, with live prices and a search;
 * choosing one opens it on the same route (`?symbol=`).
 */
export function MarketPicker({ instrument }: { instrument: MarketRow }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <Popover
      open={open}
      onOpenChange={setOpen}
      trigger="click"
      placement="bottomLeft"
      arrow={false}
      destroyOnHidden
      content={
        <Suspense fallback={<Skeleton active paragraph={{ rows: 5 }} style={{ width: 300 }} />}>
          <MarketList current={instrument.symbol} onPicked={() => setOpen(false)} />
        </Suspense>
      }
      styles={{ container: { padding: 8 } }}
    >
      <Button
        type="text"
        aria-label={t("spot.trade.pickMarket")}
        aria-haspopup="listbox"
        aria-expanded={open}
        data-testid="market-picker"
        style={{ height: "auto", paddingInline: 6, marginInlineStart: -6 }}
      >
        <Flex align="center" gap={6}>
          <Title level={4} style={{ margin: 0 }}>
            <span data-testid="instrument-symbol">{pairName(instrument)}</span>
          </Title>
          <CaretDownOutlined aria-hidden style={{ fontSize: 12 }} />
        </Flex>
      </Button>
    </Popover>
  );
}
