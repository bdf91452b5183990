import { SearchOutlined } from "@ant-design/icons";
import { INSTRUMENT_CATEGORIES, type InstrumentCategory } from "@northstar/shared/markets";
import { Card, Flex, Grid, Input, Pagination, Tabs, Tag, Typography, theme } from "antd";
import { type ReactNode, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { useIsLoggedIn } from "../../lib/session.ts";
import { useDebouncedValue } from "../assets/assets-data.ts";
import { LoginPrompt } from "../common/login-prompt.tsx";
import { EmptyState, ErrorState, LoadingState } from "../common/page-states.tsx";
import { MARKET_PAGE_SIZE, type MarketTab, useFavourites, useMarketList } from "./market-data.ts";
import { LiveIndicator } from "./market-status-tags.tsx";
import { contractPath, MarketTable } from "./market-table.tsx";

/** The tabs of SPEC's market list: the user's favourites ("Optional"), contracts, and spot exchange. */
const TABS = ["optional", "contract", "exchange"] as const;
type PageTab = (typeof TABS)[number];
const isPageTab = (v: string | null): v is PageTab => v !== null && (TABS as readonly string[]).includes(v);
const isCategory = (v: string | null): v is InstrumentCategory =>
  v !== null && (INSTRUMENT_CATEGORIES as readonly string[]).includes(v);

/**
 * /market: the catalogue in pages of 50 with live prices, by tab (favourites, contract, exchange),
 * category and search. Tab, category, search and page live in the address, so back and reload keep them.
 */
export function MarketPage() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const screens = Grid.useBreakpoint();
  const loggedIn = useIsLoggedIn();
  const [params, setParams] = useSearchParams();
  const tab: PageTab = isPageTab(params.get("tab")) ? (params.get("tab") as PageTab) : "contract";
  const category = isCategory(params.get("category"))
    ? (params.get("category") as InstrumentCategory)
    : undefined;
  const page = Math.max(1, Number.parseInt(params.get("page") ?? "1", 10) || 1);
  const urlSearch = params.get("q") ?? "";
  const [search, setSearch] = useState(urlSearch);
  const settledSearch = useDebouncedValue(search.trim(), 300);

  const update = (changes: Record<string, string | undefined>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) {
      if (value === undefined || value === "") {
        next.delete(key);
      } else {
        next.set(key, value);
      }
    }
    setParams(next, { replace: true });
  };

  // The typed search reaches the address (and the request) once typing pauses; a new search starts at page 1.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a settled search should write the address
  useEffect(() => {
    if (settledSearch !== urlSearch.trim()) {
      update({ q: settledSearch, page: undefined });
    }
  }, [settledSearch]);

  return (
    <div style={{ maxWidth: 1200, margin: "24px auto", padding: "0 16px" }} data-testid="market-page">
      <Flex align="baseline" justify="space-between" gap={12} wrap style={{ marginBottom: token.marginMD }}>
        <Flex vertical gap={2}>
          <Typography.Title level={3} style={{ margin: 0 }}>
            {t("market.title")}
          </Typography.Title>
          <Typography.Text type="secondary">{t("market.subtitle")}</Typography.Text>
        </Flex>
        <LiveIndicator />
      </Flex>
      <Card size={screens.md ? undefined : "small"} styles={{ body: { paddingTop: 4 } }}>
        <Tabs
          activeKey={tab}
          onChange={(key) => update({ tab: key, page: undefined })}
          items={TABS.map((key) => ({
            key,
            label: <span data-testid={`market-tab-${key}`}>{t(`market.tabs.${key}`)}</span>,
          }))}
        />
        <Flex vertical gap={token.marginSM}>
          {/* Visitors on the favourites tab see only the login prompt. */}
          <Flex
            align="center"
            justify="space-between"
            gap={12}
            wrap
            style={tab === "optional" && !loggedIn ? { display: "none" } : undefined}
          >
            <Flex gap={6} wrap role="group" aria-label={t("fields.category")} data-testid="market-categories">
              {(["all", ...INSTRUMENT_CATEGORIES] as const).map((c) => {
                const checked = (category ?? "all") === c;
                return (
                  <Tag.CheckableTag
                    key={c}
                    checked={checked}
                    onChange={() => update({ category: c === "all" ? undefined : c, page: undefined })}
                    data-testid={`market-category-${c}`}
                    aria-pressed={checked}
                    style={{
                      marginInlineEnd: 0,
                      paddingInline: 10,
                      lineHeight: "26px",
                      border: `1px solid ${checked ? token.colorPrimary : token.colorBorderSecondary}`,
                    }}
                  >
                    {t(`market.categories.${c}`)}
                  </Tag.CheckableTag>
                );
              })}
            </Flex>
            <Input
              allowClear
              value={search}
              onChange={(e) => setSearch(e.target.value)}
              prefix={<SearchOutlined style={{ color: token.colorTextTertiary }} />}
              placeholder={t("market.search")}
              aria-label={t("market.search")}
              maxLength={32}
              style={{ flex: "1 1 200px", maxWidth: screens.md ? 280 : undefined }}
              data-testid="market-search"
            />
          </Flex>
          {/* One list per tab (the key): while a page or filter loads, the rows shown are the same tab's, never another's. */}
          {tab === "optional" ? (
            <FavouritesList
              key="optional"
              category={category}
              search={settledSearch}
              page={page}
              onPage={(p) => update({ page: String(p) })}
            />
          ) : (
            <CatalogueList
              key={tab}
              tab={tab}
              category={category}
              search={settledSearch}
              page={page}
              onPage={(p) => update({ page: String(p) })}
            />
          )}
        </Flex>
      </Card>
    </div>
  );
}

interface ListProps {
  category: InstrumentCategory | undefined;
  search: string;
  page: number;
  onPage: (page: number) => void;
}

/** The contract or exchange tab: one page of the catalogue. */
function CatalogueList({ tab, ...props }: ListProps & { tab: MarketTab }) {
  const { t } = useTranslation();
  return (
    <PagedList {...props} tab={tab} empty={props.search ? t("market.noMatch") : t("market.noMarkets")} />
  );
}

/** The favourites tab: visitors are asked to log in; users see their starred markets. */
function FavouritesList(props: ListProps) {
  const { t } = useTranslation();
  const loggedIn = useIsLoggedIn();
  const favourites = useFavourites();
  if (!loggedIn) {
    return <LoginPrompt />;
  }
  if (favourites.isPending) {
    return <LoadingState rows={6} />;
  }
  if (favourites.isError) {
    return <ErrorState onRetry={() => void favourites.refetch()} />;
  }
  if (favourites.data.length === 0) {
    return (
      <div style={{ paddingBlock: 24 }} data-testid="market-favourites-empty">
        <EmptyState>{t("market.noFavourites")}</EmptyState>
      </div>
    );
  }
  return (
    <PagedList
      {...props}
      tab="all"
      symbols={favourites.data}
      empty={props.search || props.category ? t("market.noMatch") : t("market.noFavourites")}
    />
  );
}

function PagedList({
  tab,
  category,
  search,
  page,
  onPage,
  symbols,
  empty,
}: ListProps & { tab: MarketTab; symbols?: string[]; empty: ReactNode }) {
  const { t } = useTranslation();
  const list = useMarketList({ tab, category, search, symbols, page, pageSize: MARKET_PAGE_SIZE });

  // A page past the end (the list shrank, or an edited address) goes to the last page.
  const total = list.data?.total;
  useEffect(() => {
    if (total !== undefined && total > 0 && (page - 1) * MARKET_PAGE_SIZE >= total) {
      onPage(Math.ceil(total / MARKET_PAGE_SIZE));
    }
  }, [total, page, onPage]);

  if (list.isPending) {
    return <LoadingState rows={8} />;
  }
  if (list.isError && !list.data) {
    return <ErrorState onRetry={() => void list.refetch()} />;
  }
  return (
    <Flex vertical gap={12}>
      <MarketTable
        rows={list.data.items}
        loading={list.isFetching && list.isPlaceholderData}
        favourites
        extended
        testId="market-table"
        pathOf={tab === "contract" ? contractPath : undefined}
        empty={
          <div style={{ paddingBlock: 24 }} data-testid="market-empty">
            <EmptyState>{empty}</EmptyState>
          </div>
        }
      />
      {list.data.total > MARKET_PAGE_SIZE ? (
        <Pagination
          style={{ alignSelf: "flex-end" }}
          current={page}
          pageSize={MARKET_PAGE_SIZE}
          total={list.data.total}
          showSizeChanger={false}
          showTotal={(n) => t("market.total", { count: n })}
          onChange={onPage}
          size="small"
        />
      ) : null}
    </Flex>
  );
}
