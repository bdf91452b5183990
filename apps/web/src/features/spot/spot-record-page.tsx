import { SwapOutlined } from "@ant-design/icons";
import { Button, Flex, Select, Tabs } from "antd";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { useAppNavigate } from "../../lib/navigation.tsx";
import { Page } from "../common/page.tsx";
import { pairName } from "../markets/market-data.ts";
import { useSpotLiveUpdates, useSpotMarkets } from "./spot-data.ts";
import { FillList } from "./spot-fills.tsx";
import { OrderList } from "./spot-orders.tsx";

const TABS = ["open", "history", "fills"] as const;
type RecordTab = (typeof TABS)[number];
const isTab = (v: string | null): v is RecordTab => v !== null && (TABS as readonly string[]).includes(v);

/**
 * /currencyRecord: the user's spot orders in every market (current and history) and their fills,
 * paginated, optionally of one market. Tab, market and page live in the address, so Back returns
 * to the same list; the socket keeps it current.
 */
export function SpotRecordPage({ defaultTab = "open" }: { defaultTab?: RecordTab }) {
  const { t } = useTranslation();
  const go = useAppNavigate();
  const [params, setParams] = useSearchParams();
  const tabParam = params.get("tab");
  const tab: RecordTab = isTab(tabParam) ? tabParam : defaultTab;
  const symbol = params.get("symbol") || undefined;
  const page = Math.max(1, Math.min(10_000, Number.parseInt(params.get("page") ?? "1", 10) || 1));
  const markets = useSpotMarkets();
  useSpotLiveUpdates();

  const update = (changes: Record<string, string | undefined>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) {
      if (value === undefined) {
        next.delete(key);
      } else {
        next.set(key, value);
      }
    }
    setParams(next, { replace: true });
  };
  const onPage = (p: number) => {
    update({ page: p > 1 ? String(p) : undefined });
    window.scrollTo(0, 0);
  };

  const body = (key: RecordTab) =>
    key !== tab ? null : key === "fills" ? (
      <FillList symbol={symbol} page={page} onPage={onPage} />
    ) : (
      <OrderList
        scope={key}
        symbol={symbol}
        page={page}
        onPage={onPage}
        showPair
        emptyText={
          key === "open"
            ? t(symbol ? "spot.orders.emptyOpen" : "spot.orders.emptyOpenAll")
            : t("spot.orders.emptyHistory")
        }
      />
    );

  return (
    <Page
      title={t("nav.spotRecord")}
      width={1200}
      extra={
        <Button
          icon={<SwapOutlined />}
          onClick={() => go(symbol ? `/currency?symbol=${encodeURIComponent(symbol)}` : "/currency")}
          data-testid="record-trade"
        >
          {t("spot.record.trade")}
        </Button>
      }
    >
      <Tabs
        activeKey={tab}
        onChange={(key) => update({ tab: key === defaultTab ? undefined : key, page: undefined })}
        style={{ marginTop: -12 }}
        tabBarExtraContent={
          <Select
            value={symbol ?? ""}
            onChange={(v) => update({ symbol: v || undefined, page: undefined })}
            style={{ width: 160 }}
            size="small"
            loading={markets.isPending}
            showSearch={{ optionFilterProp: "search" }}
            aria-label={t("spot.orders.pair")}
            data-testid="record-market"
            options={[
              { value: "", label: t("spot.orders.allMarkets"), search: "" },
              ...(markets.data?.items ?? []).map((row) => ({
                value: row.symbol,
                label: pairName(row),
                search: `${row.symbol} ${row.name}`,
              })),
            ]}
          />
        }
        items={TABS.map((key) => ({
          key,
          label: <span data-testid={`record-tab-${key}`}>{t(`spot.record.tabs.${key}`)}</span>,
          children: <Flex vertical>{body(key)}</Flex>,
        }))}
      />
    </Page>
  );
}

/** /deallog: the deal log, the same records opening on the user's fills (each trade of each order). */
export function DealLogPage() {
  return <SpotRecordPage defaultTab="fills" />;
}
