import { DownloadOutlined, FileTextOutlined, SwapOutlined, UploadOutlined } from "@ant-design/icons";
import { type TWalletType, WALLET_TYPES } from "@northstar/shared/contracts/funding";
import { Button, Card, Col, Flex, Grid, Row, Segmented, Tabs, Tag, Typography, theme } from "antd";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useLocation, useSearchParams } from "react-router";
import { useAppNavigate } from "../../lib/navigation.tsx";
import { ErrorState, LoadingState } from "../common/page-states.tsx";
import { type AssetsData, type AssetsOverview, useAssets, useAssetsOverview } from "./assets-data.ts";
import { NUMERIC_STYLE, useMoneyFormat } from "./assets-format.ts";
import { Balances } from "./balances.tsx";
import { Holdings } from "./holdings.tsx";
import { Num } from "./numeric-text.tsx";

/** /table2 shows the accounts other than exchange, one tab each. */
const OTHER_WALLETS = WALLET_TYPES.filter((w) => w !== "exchange");

const isOtherWallet = (v: string | null): v is TWalletType =>
  v !== null && (OTHER_WALLETS as readonly string[]).includes(v);

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
  const overview = useAssetsOverview();
  const isExchange = pathname !== "/table2";
  const wallet: TWalletType = isExchange
    ? "exchange"
    : isOtherWallet(params.get("wallet"))
      ? (params.get("wallet") as TWalletType)
      : "contract";

  let body: ReactNode;
  if (assets.isPending || overview.isPending) {
    body = (
      <Card>
        <LoadingState rows={8} />
      </Card>
    );
  } else if (assets.isError || overview.isError) {
    body = (
      <Card>
        <ErrorState onRetry={() => void Promise.all([assets.refetch(), overview.refetch()])} />
      </Card>
    );
  } else {
    body = (
      <Flex vertical gap={token.marginMD}>
        <Summary data={assets.data} overview={overview.data} wallet={wallet} />
        {isExchange && <Holdings overview={overview.data} />}
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

/**
 * The totals in USDT (everything the user owns, every account and product, and the account shown)
 * and the quick actions.
 */
function Summary({
  data,
  overview,
  wallet,
}: {
  data: AssetsData;
  overview: AssetsOverview;
  wallet: TWalletType;
}) {
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
                {format.amount(overview.totalUsdt, 2)}
              </Typography.Text>
              <Typography.Text type="secondary">USDT</Typography.Text>
            </Flex>
            <Typography.Text
              type="secondary"
              style={{ fontSize: token.fontSizeSM }}
              data-testid="assets-total-note"
            >
              {t("assets.holdings.allAccounts")} · {t("assets.holdings.valuation")}
            </Typography.Text>
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
