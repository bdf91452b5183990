import { SearchOutlined } from "@ant-design/icons";
import type { TWalletType } from "@northstar/shared/contracts/funding";
import {
  Button,
  Col,
  Flex,
  Grid,
  Input,
  Row,
  Switch,
  Table,
  type TableColumnsType,
  Tooltip,
  Typography,
  theme,
} from "antd";
import { type ReactNode, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { AppLink, useAppNavigate } from "../../lib/navigation.tsx";
import { createStoredValue, useStoredValue } from "../../lib/store.ts";
import { EmptyState } from "../common/page-states.tsx";
import type { AssetRow } from "./assets-data.ts";
import { isZero, useMoneyFormat } from "./assets-format.ts";
import { CurrencyLabel } from "./currency-mark.tsx";
import { Num } from "./numeric-text.tsx";
import { Stat } from "./stat.tsx";

/** "Hide zero balances", remembered across visits; on until the user turns it off (a new account holds ~30 empty currencies). */
export const hideZeroStore = createStoredValue<"1" | "0">("assets.hideZero", "1", (v): v is "1" | "0" =>
  ["1", "0"].includes(v),
);

/** The rows of one account: search, "hide zero balances", then a table (wide) or stacked rows (narrow). */
export function Balances({ rows, wallet }: { rows: AssetRow[]; wallet: TWalletType }) {
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
