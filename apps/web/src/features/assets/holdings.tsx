import { Card, Col, Flex, Grid, Row, Table, type TableColumnsType, Tooltip, Typography, theme } from "antd";
import { useTranslation } from "react-i18next";
import type { AssetHolding, AssetsOverview } from "./assets-data.ts";
import { useMoneyFormat } from "./assets-format.ts";
import { CurrencyLabel } from "./currency-mark.tsx";
import { type HoldingSplit, splitHolding } from "./holding-split.ts";
import { Num } from "./numeric-text.tsx";
import { Stat } from "./stat.tsx";

/** In a narrow cell, a very long figure wraps rather than overflowing. */
const WRAP = { whiteSpace: "normal", overflowWrap: "anywhere" } as const;

/**
 * Everything the user owns, per currency, over every account and product: available, on hold or in
 * orders, and what sits elsewhere (contract margin, earn principal and accrued yield, open option
 * stakes, launchpad holds, C2C reservations, pending withdrawals), each part named, with the total
 * and its USDT value at the platform's own prices.
 */
export function Holdings({ overview }: { overview: AssetsOverview }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const screens = Grid.useBreakpoint();
  if (overview.holdings.length === 0) {
    return null;
  }
  return (
    <Card size={screens.md ? undefined : "small"} data-testid="holdings">
      <Flex vertical gap={token.marginSM}>
        <Flex vertical gap={2}>
          <Typography.Title level={5} style={{ margin: 0 }}>
            {t("assets.holdings.title")}
          </Typography.Title>
          <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
            {t("assets.holdings.caption")}
          </Typography.Text>
        </Flex>
        {screens.md ? (
          <HoldingTable holdings={overview.holdings} />
        ) : (
          <HoldingList holdings={overview.holdings} />
        )}
        <Typography.Text
          type="secondary"
          style={{ fontSize: token.fontSizeSM }}
          data-testid="holdings-valuation"
        >
          {t("assets.holdings.valuation")}
          {overview.unpriced.length > 0 &&
            ` · ${t("assets.holdings.unpriced", { currencies: overview.unpriced.join(", ") })}`}
        </Typography.Text>
      </Flex>
    </Card>
  );
}

/** The named parts of "in products and pending", one line each. */
function Parts({ holding, split }: { holding: AssetHolding; split: HoldingSplit }) {
  const { t } = useTranslation();
  const format = useMoneyFormat();
  if (split.parts.length === 0) {
    return null;
  }
  return (
    <Flex vertical gap={0} style={{ fontSize: 12 }}>
      {split.parts.map((p) => (
        <Flex key={p.bucket} justify="space-between" gap={12} wrap>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t(`assets.holdings.bucket.${p.bucket}`)}
          </Typography.Text>
          <Num style={{ fontSize: 12, ...WRAP }} testId={`holding-${holding.currency}-${p.bucket}`}>
            {format.amount(p.amount, holding.displayDecimals)}
          </Num>
        </Flex>
      ))}
    </Flex>
  );
}

function useCells() {
  const { t } = useTranslation();
  const format = useMoneyFormat();
  return {
    amount: (h: AssetHolding, value: string) => format.amount(value, h.displayDecimals),
    value: (h: AssetHolding) =>
      h.valueUsdt === null ? (
        <Tooltip title={t("assets.noPrice")}>
          <span>—</span>
        </Tooltip>
      ) : (
        format.amount(h.valueUsdt, 2)
      ),
  };
}

type HoldingRow = AssetHolding & { split: HoldingSplit };

function HoldingTable({ holdings }: { holdings: AssetHolding[] }) {
  const { t } = useTranslation();
  const cells = useCells();
  const rows: HoldingRow[] = holdings.map((h) => ({ ...h, split: splitHolding(h.buckets) }));
  const columns: TableColumnsType<HoldingRow> = [
    {
      key: "currency",
      title: t("fields.currency"),
      render: (_, r) => <CurrencyLabel code={r.currency} name={r.name} />,
    },
    {
      key: "available",
      title: t("assets.available"),
      align: "right",
      render: (_, r) => <Num>{cells.amount(r, r.split.available)}</Num>,
    },
    {
      key: "held",
      title: t("assets.holdings.held"),
      align: "right",
      render: (_, r) => <Num>{cells.amount(r, r.split.held)}</Num>,
    },
    {
      key: "elsewhere",
      title: t("assets.holdings.elsewhere"),
      align: "right",
      render: (_, r) => (
        <Flex vertical gap={2} style={{ minWidth: 200 }}>
          <Num testId={`holding-${r.currency}-elsewhere`}>{cells.amount(r, r.split.elsewhere)}</Num>
          <Parts holding={r} split={r.split} />
        </Flex>
      ),
    },
    {
      key: "total",
      title: t("assets.holdings.total"),
      align: "right",
      render: (_, r) => (
        <Num strong testId={`holding-${r.currency}-total`}>
          {cells.amount(r, r.total)}
        </Num>
      ),
    },
    {
      key: "value",
      title: t("assets.valueUsdt"),
      align: "right",
      render: (_, r) => <Num testId={`holding-${r.currency}-value`}>{cells.value(r)}</Num>,
    },
  ];
  return (
    <Table<HoldingRow>
      rowKey="currency"
      columns={columns}
      dataSource={rows}
      pagination={false}
      size="middle"
      scroll={{ x: "max-content" }}
      onRow={(r) => ({ "data-testid": `holding-row-${r.currency}` }) as React.HTMLAttributes<HTMLElement>}
    />
  );
}

/** Narrow screens: each currency on its own block, the named parts under its figures. */
function HoldingList({ holdings }: { holdings: AssetHolding[] }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const cells = useCells();
  return (
    <div>
      {holdings.map((h, i) => {
        const split = splitHolding(h.buckets);
        return (
          <Flex
            key={h.currency}
            vertical
            gap={8}
            style={{
              paddingBlock: token.paddingSM,
              borderTop: i > 0 ? `1px solid ${token.colorSplit}` : undefined,
            }}
            data-testid={`holding-row-${h.currency}`}
          >
            <Flex justify="space-between" align="center" gap={8}>
              <CurrencyLabel code={h.currency} name={h.name} size={28} />
              <Stat label={t("assets.valueUsdt")}>
                <Num style={WRAP} testId={`holding-${h.currency}-value`}>
                  {cells.value(h)}
                </Num>
              </Stat>
            </Flex>
            <Row gutter={8}>
              <Col span={8}>
                <Stat label={t("assets.available")} align="start">
                  <Num style={WRAP}>{cells.amount(h, split.available)}</Num>
                </Stat>
              </Col>
              <Col span={8}>
                <Stat label={t("assets.holdings.held")}>
                  <Num style={WRAP}>{cells.amount(h, split.held)}</Num>
                </Stat>
              </Col>
              <Col span={8}>
                <Stat label={t("assets.holdings.total")}>
                  <Num strong style={WRAP} testId={`holding-${h.currency}-total`}>
                    {cells.amount(h, h.total)}
                  </Num>
                </Stat>
              </Col>
            </Row>
            {split.parts.length > 0 && (
              <Flex vertical gap={2}>
                <Flex justify="space-between" gap={8}>
                  <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
                    {t("assets.holdings.elsewhere")}
                  </Typography.Text>
                  <Num style={WRAP} testId={`holding-${h.currency}-elsewhere`}>
                    {cells.amount(h, split.elsewhere)}
                  </Num>
                </Flex>
                <Parts holding={h} split={split} />
              </Flex>
            )}
          </Flex>
        );
      })}
    </div>
  );
}
