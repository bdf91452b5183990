import {
  DownloadOutlined,
  FileTextOutlined,
  SearchOutlined,
  SwapOutlined,
  UploadOutlined,
} from "@ant-design/icons";
import { type TWalletType, WALLET_TYPES } from "@northstar/shared/contracts/funding";
import {
  Button,
  Card,
  Col,
  Flex,
  Grid,
  Input,
  Row,
  Segmented,
  Switch,
  Table,
  type TableColumnsType,
  Tabs,
  Tag,
  Tooltip,
  Typography,
  theme,
} from "antd";
import { type ReactNode, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useLocation, useSearchParams } from "react-router";
import { AppLink, useAppNavigate } from "../../lib/navigation.tsx";
import { createStoredValue, useStoredValue } from "../../lib/store.ts";
import { EmptyState, ErrorState, LoadingState } from "../common/page-states.tsx";
import { type AssetRow, type AssetsData, useAssets } from "./assets-data.ts";
import { isZero, NUMERIC_STYLE, useMoneyFormat } from "./assets-format.ts";
import { CurrencyLabel } from "./currency-mark.tsx";
import { Num } from "./numeric-text.tsx";
import { Stat } from "./stat.tsx";

/** /table2 shows the accounts other than exchange, one tab each. */
const OTHER_WALLETS = WALLET_TYPES.filter((w) => w !== "exchange");
const isOtherWallet = (v: string | null): v is TWalletType =>
  v !== null && (OTHER_WALLETS as readonly string[]).includes(v);

const hideZeroStore = createStoredValue<"1" | "0">("assets.hideZero", "0", (v): v is "1" | "0" =>
  ["1", "0"].includes(v),
);

/**
 * /table1 (the exchange account) and /table2 (contract, options, futures): the total in USDT,
 * quick actions, and a row per currency with available, frozen and converted value.
 */
export function AssetsPage() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { pathname } = useLocation();
  const [params, setParams] = useSearchParams();
  const go = useAppNavigate();
  const screens = Grid.useBreakpoint();
  const assets = useAssets();
  const isExchange = pathname !== "/table2";
  const wallet: TWalletType = isExchange
    ? "exchange"
    : isOtherWallet(params.get("wallet"))
      ? (params.get("wallet") as TWalletType)
      : "contract";

  let body: ReactNode;
  if (assets.isPending) {
    body = (
      <Card>
        <LoadingState rows={8} />
      </Card>
    );
  } else if (assets.isError) {
    body = (
      <Card>
        <ErrorState onRetry={() => void assets.refetch()} />
      </Card>
    );
  } else {
    body = (
      <Flex vertical gap={token.marginMD}>
        <Summary data={assets.data} wallet={wallet} />
        <Card
          size={screens.md ? undefined : "small"}
          styles={{ body: { paddingTop: isExchange ? undefined : 4 } }}
        >
          {!isExchange && (
            <Tabs
              activeKey={wallet}
              onChange={(key) => setParams({ wallet: key }, { replace: true })}
              items={OTHER_WALLETS.map((w) => ({
                key: w,
                label: <span data-testid={`assets-tab-${w}`}>{t(`assets.wallets.${w}`)}</span>,
              }))}
            />
          )}
          <Balances rows={assets.data.rows.filter((r) => r.wallet === wallet)} wallet={wallet} />
        </Card>
      </Flex>
    );
  }

  return (
    <div style={{ maxWidth: 1100, margin: "24px auto", padding: "0 16px" }} data-testid="assets-page">
      <Flex align="center" justify="space-between" gap={12} wrap style={{ marginBottom: token.marginMD }}>
        <Typography.Title level={3} style={{ margin: 0 }}>
          {t("nav.assets")}
        </Typography.Title>
        <Segmented
          value={isExchange ? "/table1" : "/table2"}
          onChange={(to) => go(to)}
          options={[
            {
              value: "/table1",
              label: <span data-testid="assets-switch-exchange">{t("assets.exchangeAccount")}</span>,
            },
            {
              value: "/table2",
              label: <span data-testid="assets-switch-other">{t("assets.otherAccounts")}</span>,
            },
          ]}
        />
      </Flex>
      {body}
    </div>
  );
}

/** The totals in USDT (all accounts, and the one shown) and the quick actions. */
function Summary({ data, wallet }: { data: AssetsData; wallet: TWalletType }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const screens = Grid.useBreakpoint();
  const format = useMoneyFormat();
  return (
    <Card
      size={screens.md ? undefined : "small"}
      style={{
        background: `linear-gradient(135deg, ${token.colorPrimaryBg} 0%, ${token.colorBgContainer} 75%)`,
      }}
    >
      <Row gutter={[24, 20]} align="middle">
        <Col xs={24} md={13}>
          <Flex vertical gap={4}>
            <Flex align="center" gap={8} wrap>
              <Typography.Text type="secondary">{t("assets.totalAssets")}</Typography.Text>
              {data.book === "demo" && (
                <Tag color="warning" style={{ marginInlineEnd: 0 }} data-testid="assets-demo-tag">
                  {t("common.demo.title")}
                </Tag>
              )}
            </Flex>
            <Flex align="baseline" gap={8} wrap>
              <Typography.Text
                strong
                style={{ ...NUMERIC_STYLE, fontSize: "clamp(26px, 6vw, 34px)", lineHeight: 1.2 }}
                data-testid="assets-total"
              >
                {format.amount(data.totalUsdt, 2)}
              </Typography.Text>
              <Typography.Text type="secondary">USDT</Typography.Text>
            </Flex>
            <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
              {t("assets.accountTotal", { account: t(`assets.wallets.${wallet}`) })}{" "}
              <Num testId="assets-account-total">{format.amount(data.totals[wallet], 2)} USDT</Num>
            </Typography.Text>
          </Flex>
        </Col>
        <Col xs={24} md={11}>
          <QuickActions />
        </Col>
      </Row>
    </Card>
  );
}

const ACTIONS = [
  { to: "/authenticationrj", label: "nav.deposit", icon: <DownloadOutlined />, id: "deposit" },
  { to: "/authenticationcj", label: "nav.withdraw", icon: <UploadOutlined />, id: "withdraw" },
  { to: "/transfer", label: "nav.transfer", icon: <SwapOutlined />, id: "transfer" },
  { to: "/moneyRecord", label: "nav.records", icon: <FileTextOutlined />, id: "records" },
] as const;

/** Four equal buttons, icon over label, so long labels (Thai, Vietnamese) wrap instead of overflowing. */
function QuickActions() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const go = useAppNavigate();
  return (
    <Row gutter={[8, 8]}>
      {ACTIONS.map((a, i) => (
        <Col span={6} key={a.to}>
          <Button
            block
            type={i === 0 ? "primary" : "default"}
            onClick={() => go(a.to)}
            data-testid={`assets-action-${a.id}`}
            style={{
              height: "auto",
              minHeight: 64,
              paddingInline: 4,
              paddingBlock: token.paddingXS,
              flexDirection: "column",
              gap: 4,
              whiteSpace: "normal",
              lineHeight: 1.25,
            }}
          >
            <span style={{ fontSize: 18 }}>{a.icon}</span>
            <span style={{ fontSize: token.fontSizeSM }}>{t(a.label)}</span>
          </Button>
        </Col>
      ))}
    </Row>
  );
}

/** The rows of one account: search, "hide zero balances", then a table (wide) or stacked rows (narrow). */
function Balances({ rows, wallet }: { rows: AssetRow[]; wallet: TWalletType }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const screens = Grid.useBreakpoint();
  const hideZero = useStoredValue(hideZeroStore) === "1";
  const [search, setSearch] = useState("");
  const go = useAppNavigate();

  const shown = useMemo(() => {
    const q = search.trim().toLowerCase();
    return rows.filter(
      (r) =>
        (!hideZero || !isZero(r.available) || !isZero(r.frozen)) &&
        (q === "" || r.currency.toLowerCase().includes(q) || r.name.toLowerCase().includes(q)),
    );
  }, [rows, hideZero, search]);

  let list: ReactNode;
  if (shown.length === 0) {
    list = (
      <div style={{ paddingBlock: token.paddingLG }}>
        <EmptyState>
          {search.trim() ? (
            t("assets.noMatch")
          ) : (
            <Flex vertical align="center" gap={12}>
              <span>{t("assets.noBalances")}</span>
              <Button type="primary" onClick={() => go("/authenticationrj")}>
                {t("nav.deposit")}
              </Button>
            </Flex>
          )}
        </EmptyState>
      </div>
    );
  } else if (screens.md) {
    list = <BalanceTable rows={shown} wallet={wallet} />;
  } else {
    list = <BalanceList rows={shown} />;
  }

  return (
    <Flex vertical gap={token.marginSM}>
      <Flex align="center" justify="space-between" gap={12} wrap>
        <Input
          allowClear
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          prefix={<SearchOutlined style={{ color: token.colorTextTertiary }} />}
          placeholder={t("assets.search")}
          aria-label={t("assets.search")}
          style={{ flex: "1 1 200px", maxWidth: 320 }}
          data-testid="assets-search"
        />
        {/* biome-ignore lint/a11y/noLabelWithoutControl: the switch inside is the label's control */}
        <label style={{ display: "inline-flex", alignItems: "center", gap: 8, cursor: "pointer" }}>
          <Switch
            size="small"
            checked={hideZero}
            onChange={(on) => hideZeroStore.set(on ? "1" : "0")}
            data-testid="assets-hide-zero"
          />
          <Typography.Text>{t("assets.hideZero")}</Typography.Text>
        </label>
      </Flex>
      {list}
    </Flex>
  );
}

function useRowCells() {
  const { t } = useTranslation();
  const format = useMoneyFormat();
  return {
    available: (r: AssetRow) => format.amount(r.available, r.displayDecimals),
    frozen: (r: AssetRow) => format.amount(r.frozen, r.displayDecimals),
    value: (r: AssetRow) =>
      r.valueUsdt === null ? (
        <Tooltip title={t("assets.noPrice")}>
          <span>—</span>
        </Tooltip>
      ) : (
        format.amount(r.valueUsdt, 2)
      ),
  };
}

function BalanceTable({ rows, wallet }: { rows: AssetRow[]; wallet: TWalletType }) {
  const { t } = useTranslation();
  const cells = useRowCells();
  const columns: TableColumnsType<AssetRow> = [
    {
      key: "currency",
      title: t("fields.currency"),
      render: (_, r) => <CurrencyLabel code={r.currency} name={r.name} />,
    },
    {
      key: "available",
      title: t("assets.available"),
      align: "right",
      render: (_, r) => <Num>{cells.available(r)}</Num>,
    },
    {
      key: "frozen",
      title: t("assets.frozen"),
      align: "right",
      render: (_, r) => <Num>{cells.frozen(r)}</Num>,
    },
    {
      key: "value",
      title: t("assets.valueUsdt"),
      align: "right",
      render: (_, r) => <Num>{cells.value(r)}</Num>,
    },
    {
      key: "actions",
      title: t("assets.actions"),
      align: "right",
      width: 1,
      render: (_, r) => (
        <Flex gap={12} justify="flex-end" style={{ whiteSpace: "nowrap" }}>
          <AppLink to={`/transfer?from=${wallet}&currency=${r.currency}`}>{t("nav.transfer")}</AppLink>
          {wallet === "exchange" && (
            <AppLink to={`/transfer?tab=convert&from=${r.currency}`}>{t("assets.convert.tab")}</AppLink>
          )}
        </Flex>
      ),
    },
  ];
  return (
    <Table<AssetRow>
      rowKey="currency"
      columns={columns}
      dataSource={rows}
      pagination={false}
      size="middle"
      scroll={{ x: "max-content" }}
      onRow={(r) => ({ "data-testid": `asset-row-${r.currency}` }) as React.HTMLAttributes<HTMLElement>}
    />
  );
}

/** In a third of a phone's width, a very long figure wraps rather than overflowing. */
const WRAP = { whiteSpace: "normal", overflowWrap: "anywhere" } as const;

/** Narrow screens: each currency on its own block with three labelled figures. */
function BalanceList({ rows }: { rows: AssetRow[] }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const cells = useRowCells();
  return (
    <div>
      {rows.map((r, i) => (
        <Flex
          key={r.currency}
          vertical
          gap={10}
          style={{
            paddingBlock: token.paddingSM,
            borderTop: i > 0 ? `1px solid ${token.colorSplit}` : undefined,
          }}
          data-testid={`asset-row-${r.currency}`}
        >
          <CurrencyLabel code={r.currency} name={r.name} size={28} />
          <Row gutter={8}>
            <Col span={8}>
              <Stat label={t("assets.available")} align="start">
                <Num style={WRAP}>{cells.available(r)}</Num>
              </Stat>
            </Col>
            <Col span={8}>
              <Stat label={t("assets.frozen")}>
                <Num style={WRAP}>{cells.frozen(r)}</Num>
              </Stat>
            </Col>
            <Col span={8}>
              <Stat label={t("assets.valueUsdt")}>
                <Num style={WRAP}>{cells.value(r)}</Num>
              </Stat>
            </Col>
          </Row>
        </Flex>
      ))}
    </div>
  );
}
