import { LeftOutlined, RightOutlined } from "@ant-design/icons";
import { WALLET_TYPES } from "@northstar/shared/contracts/funding";
import { LANGUAGE_INFO } from "@northstar/shared/languages";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Button, Col, Flex, Grid, Row, Select, Table, type TableColumnsType, Typography, theme } from "antd";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { useLocation, useSearchParams } from "react-router";
import { useLanguage } from "../../lib/session.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { Page } from "../common/page.tsx";
import { EmptyState, ErrorState, LoadingState } from "../common/page-states.tsx";
import { type CurrencyInfo, type MoneyRecord, useCurrencies } from "./assets-data.ts";
import { useMoneyFormat } from "./assets-format.ts";
import { Num } from "./numeric-text.tsx";
import { Stat } from "./stat.tsx";
import { isWallet } from "./transfer-rules.ts";

const PAGE_SIZE = 20;
const TITLES: Record<string, string> = {
  "/record": "nav.records",
  "/moneyRecord": "nav.moneyRecord",
  "/accountRecord": "nav.accountRecord",
};

/**
 * /record, /moneyRecord and /accountRecord: every change to the user's balances, newest first, with
 * its reason and reference, filtered by account and currency. /accountRecord opens on the exchange
 * account. The filters live in the address, so a filtered list can be bookmarked or shared.
 */
export function MoneyRecordsPage() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const [params, setParams] = useSearchParams();
  const walletParam = params.get("wallet");
  const wallet = isWallet(walletParam)
    ? walletParam
    : walletParam === null && pathname === "/accountRecord"
      ? "exchange"
      : undefined;
  const currency = params.get("currency") || undefined;
  const page = Math.max(1, Math.min(10_000, Number.parseInt(params.get("page") ?? "1", 10) || 1));

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

  return (
    <Page title={t(TITLES[pathname] ?? "nav.moneyRecord")} width={1100}>
      <Flex vertical gap={16}>
        <Filters
          wallet={wallet ?? "all"}
          currency={currency ?? ""}
          onWallet={(w) => update({ wallet: w, page: undefined })}
          onCurrency={(c) => update({ currency: c || undefined, page: undefined })}
        />
        <Records
          wallet={wallet}
          currency={currency}
          page={page}
          onPage={(p) => update({ page: p > 1 ? String(p) : undefined })}
        />
      </Flex>
    </Page>
  );
}

function Filters({
  wallet,
  currency,
  onWallet,
  onCurrency,
}: {
  wallet: string;
  currency: string;
  onWallet: (wallet: string) => void;
  onCurrency: (currency: string) => void;
}) {
  const { t } = useTranslation();
  const currencies = useCurrencies();
  return (
    <Row gutter={[12, 12]}>
      <Col xs={12} md={8}>
        <Select
          value={wallet}
          onChange={onWallet}
          style={{ width: "100%" }}
          aria-label={t("fields.wallet")}
          data-testid="records-wallet"
          options={[
            { value: "all", label: t("assets.records.allAccounts") },
            ...WALLET_TYPES.map((w) => ({ value: w, label: t(`assets.wallets.${w}`) })),
          ]}
        />
      </Col>
      <Col xs={12} md={8}>
        <Select
          value={currency}
          onChange={onCurrency}
          style={{ width: "100%" }}
          aria-label={t("fields.currency")}
          loading={currencies.isPending}
          showSearch={{ optionFilterProp: "search" }}
          data-testid="records-currency"
          options={[
            { value: "", label: t("assets.records.allCurrencies"), search: "" },
            ...(currencies.data ?? []).map((c) => ({
              value: c.code,
              label: `${c.code} · ${c.name}`,
              search: `${c.code} ${c.name}`,
            })),
          ]}
        />
      </Col>
    </Row>
  );
}

function Records({
  wallet,
  currency,
  page,
  onPage,
}: {
  wallet: string | undefined;
  currency: string | undefined;
  page: number;
  onPage: (page: number) => void;
}) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const screens = Grid.useBreakpoint();
  const currencies = useCurrencies();
  const records = useQuery(
    trpc.asset.records.queryOptions(
      {
        page,
        page_size: PAGE_SIZE,
        wallet: wallet as (typeof WALLET_TYPES)[number] | undefined,
        currency,
      },
      { placeholderData: keepPreviousData },
    ),
  );
  const byCode = useMemo(() => new Map((currencies.data ?? []).map((c) => [c.code, c])), [currencies.data]);

  if (records.isPending) {
    return <LoadingState rows={8} />;
  }
  if (records.isError) {
    return <ErrorState onRetry={() => void records.refetch()} />;
  }
  const rows = records.data;
  if (rows.length === 0 && page === 1) {
    return (
      <div style={{ paddingBlock: 24 }}>
        <EmptyState>{t("assets.records.empty")}</EmptyState>
      </div>
    );
  }
  return (
    <Flex
      vertical
      gap={16}
      style={{ opacity: records.isPlaceholderData ? 0.6 : 1, transition: "opacity .2s" }}
    >
      {rows.length === 0 ? (
        <EmptyState>{t("assets.records.noMore")}</EmptyState>
      ) : screens.md ? (
        <RecordTable rows={rows} byCode={byCode} />
      ) : (
        <RecordList rows={rows} byCode={byCode} />
      )}
      <Flex justify="flex-end" align="center" gap={8}>
        <Button
          icon={<LeftOutlined />}
          disabled={page <= 1 || records.isFetching}
          onClick={() => onPage(page - 1)}
          data-testid="records-prev"
        >
          {t("assets.records.prev")}
        </Button>
        <Typography.Text type="secondary" style={{ paddingInline: 4 }} data-testid="records-page">
          {t("assets.records.page", { page })}
        </Typography.Text>
        <Button
          disabled={rows.length < PAGE_SIZE || records.isFetching}
          onClick={() => onPage(page + 1)}
          data-testid="records-next"
        >
          {t("assets.records.next")}
          <RightOutlined />
        </Button>
      </Flex>
    </Flex>
  );
}

type Currencies = Map<string, CurrencyInfo>;

/** The cells both layouts show, formatted for the interface language. */
function useRecordCells(byCode: Currencies) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const lang = useLanguage();
  const format = useMoneyFormat();
  const time = useMemo(
    () =>
      new Intl.DateTimeFormat(LANGUAGE_INFO[lang].bcp47, {
        year: "numeric",
        month: "2-digit",
        day: "2-digit",
        hour: "2-digit",
        minute: "2-digit",
        second: "2-digit",
      }),
    [lang],
  );
  // Exact amounts: at least the display decimals, up to the currency's full precision.
  const digits = (code: string) => {
    const c = byCode.get(code);
    return [c?.displayDecimals ?? 2, c?.decimals ?? 8] as const;
  };
  return {
    time: (r: MoneyRecord) => time.format(new Date(r.time * 1000)),
    kind: (r: MoneyRecord) => t(`assets.kinds.${r.kind}`, { defaultValue: t("assets.kindFallback") }),
    account: (r: MoneyRecord) =>
      `${r.wallet ? t(`assets.wallets.${r.wallet}`) : "—"} · ${t(`assets.buckets.${r.bucket}`)}`,
    amount: (r: MoneyRecord) => {
      const text = format.signed(r.amount, ...digits(r.currency));
      const color = text.startsWith("-")
        ? token.colorError
        : text.startsWith("+")
          ? token.colorSuccess
          : undefined;
      return (
        <Num strong color={color}>
          {text}
        </Num>
      );
    },
    balance: (r: MoneyRecord) => format.exact(r.balanceAfter, ...digits(r.currency)),
    reference: (r: MoneyRecord) =>
      t(`assets.refs.${r.referenceType}`, {
        id: r.referenceId,
        defaultValue: t("assets.refs.other", { id: r.referenceId }),
      }),
  };
}

function RecordTable({ rows, byCode }: { rows: MoneyRecord[]; byCode: Currencies }) {
  const { t } = useTranslation();
  const cells = useRecordCells(byCode);
  const columns: TableColumnsType<MoneyRecord> = [
    {
      key: "time",
      title: t("assets.records.time"),
      render: (_, r) => <Num style={{ fontWeight: "normal" }}>{cells.time(r)}</Num>,
    },
    { key: "kind", title: t("fields.type"), render: (_, r) => cells.kind(r) },
    {
      key: "account",
      title: t("fields.wallet"),
      render: (_, r) => <span style={{ whiteSpace: "nowrap" }}>{cells.account(r)}</span>,
    },
    { key: "currency", title: t("fields.currency"), dataIndex: "currency" },
    { key: "amount", title: t("fields.amount"), align: "right", render: (_, r) => cells.amount(r) },
    {
      key: "balance",
      title: t("assets.records.balanceAfter"),
      align: "right",
      render: (_, r) => <Num>{cells.balance(r)}</Num>,
    },
    {
      key: "reference",
      title: t("assets.records.reference"),
      render: (_, r) => <Typography.Text type="secondary">{cells.reference(r)}</Typography.Text>,
    },
  ];
  return (
    <Table<MoneyRecord>
      rowKey="id"
      columns={columns}
      dataSource={rows}
      pagination={false}
      size="middle"
      scroll={{ x: "max-content" }}
      onRow={() => ({ "data-testid": "records-row" }) as React.HTMLAttributes<HTMLElement>}
    />
  );
}

/** Narrow screens: the reason and the signed amount first, the details under them. */
function RecordList({ rows, byCode }: { rows: MoneyRecord[]; byCode: Currencies }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const cells = useRecordCells(byCode);
  return (
    <div>
      {rows.map((r, i) => (
        <Flex
          key={r.id}
          vertical
          gap={6}
          style={{
            paddingBlock: token.paddingSM,
            borderTop: i > 0 ? `1px solid ${token.colorSplit}` : undefined,
          }}
          data-testid="records-row"
        >
          <Flex justify="space-between" align="baseline" gap={12}>
            <Typography.Text strong style={{ minWidth: 0 }}>
              {cells.kind(r)}
            </Typography.Text>
            <span style={{ flex: "none", textAlign: "end" }}>
              {cells.amount(r)} <Typography.Text type="secondary">{r.currency}</Typography.Text>
            </span>
          </Flex>
          <Flex justify="space-between" gap={12}>
            <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
              {cells.account(r)}
            </Typography.Text>
            <Typography.Text
              type="secondary"
              style={{ fontSize: token.fontSizeSM, fontVariantNumeric: "tabular-nums" }}
            >
              {cells.time(r)}
            </Typography.Text>
          </Flex>
          <Row gutter={8}>
            <Col span={12}>
              <Stat label={t("assets.records.reference")} align="start">
                <Typography.Text style={{ fontSize: token.fontSizeSM }}>{cells.reference(r)}</Typography.Text>
              </Stat>
            </Col>
            <Col span={12}>
              <Stat label={t("assets.records.balanceAfter")}>
                <Num style={{ fontSize: token.fontSizeSM }}>{cells.balance(r)}</Num>
              </Stat>
            </Col>
          </Row>
        </Flex>
      ))}
    </div>
  );
}
