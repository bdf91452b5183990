import { EditOutlined, MinusCircleOutlined, PlusOutlined } from "@ant-design/icons";
import { isErrorCode } from "@northstar/shared/errors";
import { LANGUAGE_INFO } from "@northstar/shared/languages";
import {
  DISPLAY_DECIMALS,
  INSTRUMENT_CATEGORIES,
  type InstrumentCategory,
  type InstrumentInput,
  instrumentInputSchema,
  TRADING_KINDS,
  type TradingHours,
  tradingHoursSchema,
} from "@northstar/shared/markets";
import { money } from "@northstar/shared/money";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { FormInstance, FormRule, TableColumnsType } from "antd";
import {
  Alert,
  App,
  Button,
  Card,
  Checkbox,
  Col,
  Divider,
  Drawer,
  Empty,
  Flex,
  Form,
  Input,
  InputNumber,
  Row,
  Select,
  Switch,
  Table,
  Tag,
  Tooltip,
  Typography,
} from "antd";
import type { TFunction } from "i18next";
import { type ReactNode, useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { feedback } from "../../lib/feedback.ts";
import { zodRule } from "../../lib/form-rules.ts";
import { useLanguage } from "../../lib/session.ts";
import { toApiError, useTRPC } from "../../lib/trpc.ts";
import { refusalText } from "./admin-query-client.ts";
import type { AdminOutputs } from "./admin-types.ts";
import {
  AdminPage,
  ConfirmActionDialog,
  QueryError,
  RefreshButton,
  rowTestId,
  tableWidth,
} from "./admin-ui.tsx";

type InstrumentRow = AdminOutputs["instruments"]["items"][number];
type Session = TradingHours["sessions"][number];

/** Page sizes the server accepts (admin.instruments takes at most 200 a page). */
const PAGE_SIZES = [20, 50, 100, 200];
const DEFAULT_PAGE_SIZE = 50;
/** The server's bound on the search text (ZMarketListRequestSchema). */
const SEARCH_MAX = 32;

const CATEGORY_COLOR: Record<InstrumentCategory, string> = {
  crypto: "gold",
  forex: "blue",
  stocks: "geekblue",
  indices: "purple",
  etfs: "cyan",
  metals: "orange",
  energy: "volcano",
};
const KIND_COLOR: Record<(typeof TRADING_KINDS)[number], string> = {
  spot: "green",
  contract: "blue",
  option: "magenta",
};

/**
 * The instrument catalogue (administrators only, as admin.instruments on the server): every
 * instrument, enabled or not, searched, filtered and paged by the server, since the catalogue may
 * hold thousands of rows. Operators add and edit instruments in a drawer validated by the shared
 * schema, and switch them off (a disabled instrument leaves every list and the price feed). The
 * server validates and audits every change.
 */
export function InstrumentsPage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const filters = useCatalogueFilters();
  const { search, category, page, pageSize } = filters;
  const list = useQuery(
    trpc.admin.instruments.queryOptions(
      {
        page,
        page_size: pageSize,
        ...(category ? { category } : {}),
        ...(search ? { search } : {}),
      },
      { placeholderData: keepPreviousData },
    ),
  );
  const setEnabled = useMutation(trpc.admin.setInstrumentEnabled.mutationOptions({ meta: { inline: true } }));
  const [switching, setSwitching] = useState<string | null>(null);
  // The row stays while the dialog closes, so its title does not change as it fades out.
  const [disabling, setDisabling] = useState<{ open: boolean; row: InstrumentRow | null }>({
    open: false,
    row: null,
  });
  const [editor, setEditor] = useState<{ open: boolean; row: InstrumentRow | null }>({
    open: false,
    row: null,
  });
  const total = list.data?.total ?? 0;

  // A page past the end (a shared link, or rows gone since) moves to the last page.
  const lastPage = Math.max(1, Math.ceil(total / pageSize));
  const setFilters = filters.set;
  useEffect(() => {
    if (list.data && !list.isPlaceholderData && page > lastPage) {
      setFilters({ page: lastPage });
    }
  }, [list.data, list.isPlaceholderData, page, lastPage, setFilters]);

  const enable = async (row: InstrumentRow) => {
    setSwitching(row.symbol);
    try {
      await setEnabled.mutateAsync({ symbol: row.symbol, enabled: true });
      feedback.success(t("admin.instruments.enabledDone", { symbol: row.symbol }));
    } catch (e) {
      feedback.warning(refusalText(e));
    } finally {
      setSwitching(null);
      void queryClient.invalidateQueries();
    }
  };

  const columns: TableColumnsType<InstrumentRow> = [
    {
      title: t("admin.instruments.instrument"),
      dataIndex: "symbol",
      width: 190,
      fixed: "left",
      render: (symbol: string, row) => (
        <Flex vertical gap={2} align="flex-start" style={{ minWidth: 0, maxWidth: 170 }}>
          <Flex gap={6} align="center" wrap>
            <Typography.Text strong type={row.enabled ? undefined : "secondary"}>
              {symbol}
            </Typography.Text>
            {!row.enabled && (
              <Tag style={{ marginInlineEnd: 0 }} data-testid={`admin-instrument-off-${row.symbol}`}>
                {t("admin.instruments.off")}
              </Tag>
            )}
          </Flex>
          <Typography.Text
            type="secondary"
            ellipsis={{ tooltip: `${row.name} · ${row.base} / ${row.quote}` }}
            style={{ fontSize: 12, maxWidth: 170 }}
          >
            {row.name} · {row.base}/{row.quote}
          </Typography.Text>
        </Flex>
      ),
    },
    {
      title: t("fields.category"),
      dataIndex: "category",
      width: 100,
      render: (value: InstrumentCategory) => <CategoryTag category={value} />,
    },
    {
      title: t("admin.instruments.tickLot"),
      key: "steps",
      width: 150,
      render: (_, row) => (
        <Flex vertical gap={0} style={{ fontSize: 12, fontVariantNumeric: "tabular-nums" }}>
          <StepLine label={t("admin.instruments.tick")} value={row.tickSize} />
          <StepLine label={t("admin.instruments.lot")} value={row.lotSize} />
          <StepLine label={t("admin.instruments.min")} value={row.minQty} />
        </Flex>
      ),
    },
    {
      title: t("fields.maxLeverage"),
      dataIndex: "maxLeverage",
      width: 100,
      align: "right",
      render: (value: number) => (
        <span style={{ fontVariantNumeric: "tabular-nums" }}>
          {t("admin.instruments.leverage", { value })}
        </span>
      ),
    },
    {
      title: t("fields.kinds"),
      dataIndex: "kinds",
      width: 200,
      render: (kinds: InstrumentRow["kinds"]) =>
        kinds.length === 0 ? (
          <Typography.Text type="secondary">—</Typography.Text>
        ) : (
          <Flex gap={4} wrap>
            {kinds.map((k) => (
              <Tag key={k} color={KIND_COLOR[k]} style={{ marginInlineEnd: 0 }}>
                {t(`admin.instruments.kind.${k}`)}
              </Tag>
            ))}
          </Flex>
        ),
    },
    {
      title: t("fields.tradingHours"),
      dataIndex: "tradingHours",
      width: 200,
      render: (hours: TradingHours) => <HoursSummary hours={hours} />,
    },
    {
      title: t("fields.enabled"),
      dataIndex: "enabled",
      width: 90,
      render: (enabled: boolean, row) => (
        <Switch
          size="small"
          checked={enabled}
          loading={switching === row.symbol}
          aria-label={t("fields.enabled")}
          onChange={(next) => (next ? void enable(row) : setDisabling({ open: true, row }))}
          data-testid={`admin-instrument-enabled-${row.symbol}`}
        />
      ),
    },
    {
      title: t("admin.columns.actions"),
      key: "actions",
      width: 90,
      fixed: "right",
      render: (_, row) => (
        <Button
          size="small"
          icon={<EditOutlined />}
          onClick={() => setEditor({ open: true, row })}
          data-testid={`admin-instrument-edit-${row.symbol}`}
        >
          {t("common.edit")}
        </Button>
      ),
    },
  ];

  const filtered = search !== "" || category !== undefined;

  return (
    <AdminPage
      title={t("admin.instruments.title")}
      extra={
        <>
          <RefreshButton onClick={() => void list.refetch()} loading={list.isFetching} />
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => setEditor({ open: true, row: null })}
            data-testid="admin-instrument-add"
          >
            {t("admin.instruments.add")}
          </Button>
        </>
      }
    >
      <Alert type="info" showIcon title={t("admin.instruments.note")} />
      <Card styles={{ body: { padding: 0 } }}>
        <Flex gap={12} wrap align="center" style={{ padding: 16 }}>
          <SearchBox value={search} onChange={(q) => filters.set({ search: q, page: 1 })} />
          <Select<InstrumentCategory | "all">
            value={category ?? "all"}
            onChange={(value) => filters.set({ category: value === "all" ? undefined : value, page: 1 })}
            style={{ width: 200 }}
            options={[
              { value: "all", label: t("admin.instruments.allCategories") },
              ...INSTRUMENT_CATEGORIES.map((c) => ({
                value: c,
                label: t(`admin.instruments.category.${c}`),
              })),
            ]}
            aria-label={t("fields.category")}
            data-testid="admin-instrument-category"
          />
        </Flex>
        {list.isError ? (
          <QueryError error={list.error} onRetry={() => void list.refetch()} />
        ) : (
          <Table<InstrumentRow>
            rowKey="symbol"
            size="middle"
            columns={columns}
            dataSource={list.data?.items}
            loading={list.isFetching}
            scroll={{ x: tableWidth(columns) }}
            pagination={{
              current: page,
              pageSize,
              total,
              showSizeChanger: true,
              pageSizeOptions: PAGE_SIZES,
              showTotal: (count: number) => t("admin.table.total", { count }),
              style: { marginInline: 16 },
              onChange: (nextPage, nextSize) =>
                filters.set(nextSize === pageSize ? { page: nextPage } : { page: 1, pageSize: nextSize }),
            }}
            onRow={(r) => rowTestId(`admin-instrument-row-${r.symbol}`)}
            locale={{
              emptyText: list.isPending ? (
                " "
              ) : (
                <Empty
                  image={Empty.PRESENTED_IMAGE_SIMPLE}
                  description={filtered ? t("admin.instruments.noMatch") : t("admin.instruments.empty")}
                >
                  {filtered && (
                    <Button onClick={() => filters.set({ search: "", category: undefined, page: 1 })}>
                      {t("admin.instruments.clearFilters")}
                    </Button>
                  )}
                </Empty>
              ),
            }}
            data-testid="admin-instruments-table"
          />
        )}
      </Card>
      <ConfirmActionDialog
        open={disabling.open}
        danger
        title={t("admin.instruments.disableTitle", { symbol: disabling.row?.symbol ?? "" })}
        description={t("admin.instruments.disableBody", { symbol: disabling.row?.symbol ?? "" })}
        okText={t("admin.instruments.disable")}
        onClose={() => setDisabling((d) => ({ ...d, open: false }))}
        onSubmit={async () => {
          const symbol = disabling.row?.symbol;
          if (!symbol) {
            return;
          }
          try {
            await setEnabled.mutateAsync({ symbol, enabled: false });
            feedback.success(t("admin.instruments.disabledDone", { symbol }));
          } finally {
            void queryClient.invalidateQueries();
          }
        }}
      />
      <InstrumentEditor
        open={editor.open}
        row={editor.row}
        onClose={() => setEditor((e) => ({ ...e, open: false }))}
        afterClose={() => setEditor({ open: false, row: null })}
      />
    </AdminPage>
  );
}

/** Search text, category and page in the URL (?q=, ?category=, ?page=, ?size=), so a view can be linked to. */
function useCatalogueFilters() {
  const [params, setParams] = useSearchParams();
  const search = (params.get("q") ?? "").trim().slice(0, SEARCH_MAX);
  const category = INSTRUMENT_CATEGORIES.find((c) => c === params.get("category"));
  const rawPage = Number(params.get("page"));
  const page = Number.isInteger(rawPage) && rawPage >= 1 && rawPage <= 10_000 ? rawPage : 1;
  const rawSize = Number(params.get("size"));
  const pageSize = PAGE_SIZES.includes(rawSize) ? rawSize : DEFAULT_PAGE_SIZE;

  const set = useMemo(
    () =>
      (next: {
        search?: string;
        category?: InstrumentCategory | undefined;
        page?: number;
        pageSize?: number;
      }) => {
        setParams(
          (current) => {
            const copy = new URLSearchParams(current);
            const put = (key: string, value: string | undefined, fallback?: string) => {
              if (value === undefined || value === "" || value === fallback) {
                copy.delete(key);
              } else {
                copy.set(key, value);
              }
            };
            if ("search" in next) {
              put("q", next.search?.trim());
            }
            if ("category" in next) {
              put("category", next.category);
            }
            if (next.page !== undefined) {
              put("page", String(next.page), "1");
            }
            if (next.pageSize !== undefined) {
              put("size", String(next.pageSize), String(DEFAULT_PAGE_SIZE));
            }
            return copy;
          },
          { replace: true },
        );
      },
    [setParams],
  );
  return { search, category, page, pageSize, set };
}

/** The search box: the list follows the typing after a short pause, or at once on Enter. */
function SearchBox({ value, onChange }: { value: string; onChange: (q: string) => void }) {
  const { t } = useTranslation();
  const [text, setText] = useState(value);

  // Back and forward in history, or "clear filters", change the URL's text: follow it.
  useEffect(() => {
    setText((current) => (current.trim() === value ? current : value));
  }, [value]);

  useEffect(() => {
    if (text.trim() === value) {
      return;
    }
    const timer = setTimeout(() => onChange(text.trim()), 350);
    return () => clearTimeout(timer);
  }, [text, value, onChange]);

  return (
    <Input.Search
      allowClear
      value={text}
      maxLength={SEARCH_MAX}
      placeholder={t("admin.instruments.search")}
      onChange={(e) => setText(e.target.value)}
      onSearch={(q) => onChange(q.trim())}
      style={{ width: 300, maxWidth: "100%" }}
      aria-label={t("admin.instruments.search")}
      data-testid="admin-instrument-search"
    />
  );
}

function CategoryTag({ category }: { category: InstrumentCategory }) {
  const { t } = useTranslation();
  return (
    <Tag color={CATEGORY_COLOR[category]} style={{ marginInlineEnd: 0 }}>
      {t(`admin.instruments.category.${category}`, { defaultValue: category })}
    </Tag>
  );
}

function StepLine({ label, value }: { label: string; value: string }) {
  return (
    <Flex gap={6} style={{ whiteSpace: "nowrap" }}>
      <Typography.Text type="secondary" style={{ fontSize: 12, minWidth: 34 }}>
        {label}
      </Typography.Text>
      <span>{value}</span>
    </Flex>
  );
}

/** Weekdays, Monday first, as the sessions editor and the summaries show them. */
const WEEK = [1, 2, 3, 4, 5, 6, 0];

/** Short weekday names (index 0 is Sunday) in the interface language. */
function useWeekdayNames(): string[] {
  const lang = useLanguage();
  return useMemo(() => {
    const format = new Intl.DateTimeFormat(LANGUAGE_INFO[lang].bcp47, { weekday: "short", timeZone: "UTC" });
    // 1 January 2023 was a Sunday.
    return [0, 1, 2, 3, 4, 5, 6].map((d) => format.format(new Date(Date.UTC(2023, 0, 1 + d))));
  }, [lang]);
}

/** "Mon–Fri", "Sat, Sun", "Mon, Wed–Fri": runs of three or more days as a range. */
function formatDays(days: readonly number[], names: string[], t: TFunction): string {
  const positions = [...new Set(days)].map((d) => WEEK.indexOf(d)).filter((p) => p >= 0);
  positions.sort((a, b) => a - b);
  if (positions.length === 7) {
    return t("admin.instruments.everyDay");
  }
  const parts: string[] = [];
  for (let i = 0; i < positions.length; ) {
    let j = i;
    while (j + 1 < positions.length && positions[j + 1] === (positions[j] ?? 0) + 1) {
      j += 1;
    }
    const name = (p: number | undefined) => names[WEEK[p ?? 0] ?? 0] ?? "";
    if (j - i >= 2) {
      parts.push(`${name(positions[i])}–${name(positions[j])}`);
    } else {
      for (let k = i; k <= j; k += 1) {
        parts.push(name(positions[k]));
      }
    }
    i = j + 1;
  }
  return parts.join(", ");
}

function sessionText(session: Session, names: string[], t: TFunction): string {
  return `${formatDays(session.days, names, t)} ${session.open}–${session.close}`;
}

/** "24/7", or the sessions (the first two, the rest on hover) and the time zone. */
function HoursSummary({ hours }: { hours: TradingHours }) {
  const { t } = useTranslation();
  const names = useWeekdayNames();
  if (hours.sessions.length === 0) {
    return (
      <Tag color="green" style={{ marginInlineEnd: 0 }}>
        {t("admin.instruments.alwaysOpen")}
      </Tag>
    );
  }
  const lines = hours.sessions.map((s) => sessionText(s, names, t));
  const shown = lines.slice(0, 2);
  const more = lines.length - shown.length;
  return (
    <Flex vertical gap={0} style={{ fontSize: 12, fontVariantNumeric: "tabular-nums" }}>
      {shown.map((line, i) => (
        // Sessions have no id; their order is their identity here.
        // biome-ignore lint/suspicious/noArrayIndexKey: a read-only list in a fixed order
        <span key={i} style={{ whiteSpace: "nowrap" }}>
          {line}
        </span>
      ))}
      {more > 0 && (
        <Tooltip
          title={
            <Flex vertical>
              {lines.map((line, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: a read-only list in a fixed order
                <span key={i}>{line}</span>
              ))}
            </Flex>
          }
        >
          <Typography.Link style={{ fontSize: 12, width: "fit-content" }}>
            {t("admin.instruments.moreSessions", { count: more })}
          </Typography.Link>
        </Tooltip>
      )}
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {hours.timeZone}
      </Typography.Text>
    </Flex>
  );
}

/* ------------------------------------------------------------------------------------------------ */
/* The editor                                                                                        */
/* ------------------------------------------------------------------------------------------------ */

/** What a new instrument starts as: the common choices filled in, the market-specific ones empty. */
const NEW_INSTRUMENT: InstrumentInput = {
  symbol: "",
  name: "",
  category: "crypto",
  base: "",
  quote: "USDT",
  tickSize: "",
  lotSize: "",
  minQty: "",
  contractSize: "1",
  maxLeverage: 20,
  displayDecimals: 2,
  kinds: ["spot", "contract"],
  tradingHours: { timeZone: "UTC", sessions: [] },
  referencePrice: "",
  volatility: "",
  sort: 1000,
  enabled: true,
};

const NEW_SESSION: Session = { days: [1, 2, 3, 4, 5], open: "09:00", close: "17:00" };

/** The zones offered first; every other zone the browser knows follows. */
const COMMON_ZONES = [
  "UTC",
  "America/New_York",
  "America/Chicago",
  "America/Los_Angeles",
  "America/Toronto",
  "America/Sao_Paulo",
  "Europe/London",
  "Europe/Berlin",
  "Europe/Paris",
  "Europe/Zurich",
  "Africa/Johannesburg",
  "Asia/Dubai",
  "Asia/Kolkata",
  "Asia/Bangkok",
  "Asia/Ho_Chi_Minh",
  "Asia/Singapore",
  "Asia/Hong_Kong",
  "Asia/Shanghai",
  "Asia/Taipei",
  "Asia/Seoul",
  "Asia/Tokyo",
  "Australia/Sydney",
];

/** A zone's current offset from UTC, e.g. "GMT-5"; empty when the browser does not know it. */
function zoneOffset(zone: string): string {
  try {
    const parts = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      timeZoneName: "shortOffset",
    }).formatToParts(new Date());
    return parts.find((p) => p.type === "timeZoneName")?.value ?? "";
  } catch {
    return "";
  }
}

/** Whether the browser knows the zone: the server runs the same check when it decides open or closed. */
function isKnownZone(zone: unknown): boolean {
  if (typeof zone !== "string" || zone === "") {
    return false;
  }
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

function useZoneOptions(current: string | undefined) {
  const { t } = useTranslation();
  return useMemo(() => {
    const option = (zone: string) => {
      const offset = zoneOffset(zone);
      return { value: zone, label: offset && zone !== "UTC" ? `${zone} (${offset})` : zone };
    };
    const known = new Set(COMMON_ZONES);
    const rest = Intl.supportedValuesOf("timeZone").filter((z) => !known.has(z));
    // A zone saved earlier that is in neither list still shows as itself.
    if (current && !known.has(current) && !rest.includes(current)) {
      rest.unshift(current);
    }
    return [
      { label: t("admin.instruments.commonZones"), options: COMMON_ZONES.map(option) },
      { label: t("admin.instruments.allZones"), options: rest.map(option) },
    ];
  }, [t, current]);
}

/** The form's values: the shared input with its strings trimmed and its codes upper-case. */
function normalise(values: InstrumentInput): InstrumentInput {
  const trim = (v: unknown) => (typeof v === "string" ? v.trim() : "");
  return {
    ...values,
    symbol: trim(values.symbol).toUpperCase(),
    name: trim(values.name),
    base: trim(values.base).toUpperCase(),
    quote: trim(values.quote).toUpperCase(),
    tickSize: trim(values.tickSize),
    lotSize: trim(values.lotSize),
    minQty: trim(values.minQty),
    contractSize: trim(values.contractSize),
    referencePrice: trim(values.referencePrice),
    volatility: trim(values.volatility),
    kinds: values.kinds ?? [],
    tradingHours: {
      timeZone: values.tradingHours?.timeZone ?? "",
      sessions: (values.tradingHours?.sessions ?? []).map((s) => ({
        days: [...(s.days ?? [])].sort((a, b) => a - b),
        open: trim(s.open),
        close: trim(s.close),
      })),
    },
    sort: values.sort ?? 0,
    enabled: values.enabled ?? true,
  };
}

/** A form field's name path, e.g. ["tradingHours", "sessions", 0, "open"]. */
type FieldName = Parameters<FormInstance<InstrumentInput>["setFields"]>[0][number]["name"];

/** A refusal's field ("tradingHours.sessions.0.open") as a form name path. */
const namePath = (field: string) =>
  field.split(".").map((part) => (/^\d+$/.test(part) ? Number(part) : part)) as FieldName;

/** The form label of the last named part of a path. */
const fieldLabel = (t: TFunction, path: readonly PropertyKey[]) => {
  const last = [...path].reverse().find((p) => typeof p === "string");
  return typeof last === "string" ? t(`fields.${last}`) : "";
};

const shape = instrumentInputSchema.shape;
const sessionShape = tradingHoursSchema.shape.sessions.element.shape;

/** Adds or edits one instrument; the symbol of an existing one is fixed (it is the key). */
function InstrumentEditor({
  open,
  row,
  onClose,
  afterClose,
}: {
  open: boolean;
  row: InstrumentRow | null;
  onClose: () => void;
  afterClose: () => void;
}) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<InstrumentInput>();
  const [error, setError] = useState<string>();
  const [checking, setChecking] = useState(false);
  const save = useMutation(trpc.admin.saveInstrument.mutationOptions({ meta: { inline: true } }));
  const editing = row !== null;
  const width = useDrawerWidth();

  const initial = useMemo<InstrumentInput>(() => {
    if (!row) {
      return NEW_INSTRUMENT;
    }
    const { id: _id, ...values } = row;
    return values;
  }, [row]);

  const close = () => {
    if (save.isPending || checking) {
      return;
    }
    if (!form.isFieldsTouched()) {
      onClose();
      return;
    }
    modal.confirm({
      title: t("admin.instruments.discardTitle"),
      content: t("admin.instruments.discardBody"),
      okText: t("admin.instruments.discard"),
      okButtonProps: { danger: true },
      cancelText: t("admin.instruments.keepEditing"),
      onOk: onClose,
    });
  };

  const submit = async () => {
    let values: InstrumentInput;
    try {
      values = await form.validateFields();
    } catch (e) {
      const first = (e as { errorFields?: { name: FieldName }[] }).errorFields?.[0];
      if (first) {
        form.scrollToField(first.name, { block: "center", behavior: "smooth" });
      }
      return;
    }
    setError(undefined);
    const input = normalise({ ...initial, ...values });
    // The whole input through the server's schema, so nothing reaches it that it would refuse.
    const parsed = instrumentInputSchema.safeParse(input);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const path = (issue?.path ?? []).filter((p) => typeof p === "string" || typeof p === "number");
      const label = fieldLabel(t, path);
      const code = issue?.message;
      const text = isErrorCode(code)
        ? t(`errors.${code}`, { field: label })
        : t("errors.FIELD_INVALID", { field: label });
      setError(text);
      if (path.length > 0) {
        form.setFields([{ name: path as FieldName, errors: [text] }]);
        form.scrollToField(path as FieldName, { block: "center" });
      }
      return;
    }
    // Saving is "add or edit by symbol": adding a symbol that exists would overwrite it.
    if (!editing) {
      setChecking(true);
      try {
        // Fresh from the server: another operator may have added it a moment ago.
        const found = await queryClient.fetchQuery({
          ...trpc.admin.instruments.queryOptions({ search: input.symbol, page: 1, page_size: 200 }),
          staleTime: 0,
        });
        if (found.items.some((i) => i.symbol === input.symbol)) {
          const text = t("admin.instruments.symbolTaken", { symbol: input.symbol });
          form.setFields([{ name: "symbol", errors: [text] }]);
          form.scrollToField("symbol", { block: "center" });
          setError(text);
          return;
        }
      } catch (e) {
        setError(refusalText(e));
        return;
      } finally {
        setChecking(false);
      }
    }
    try {
      const saved = await save.mutateAsync(input);
      feedback.success(
        t(editing ? "admin.instruments.saved" : "admin.instruments.created", { symbol: saved.symbol }),
      );
      onClose();
    } catch (e) {
      const refusal = toApiError(e);
      const text = refusalText(e);
      setError(text);
      if (refusal.field) {
        form.setFields([{ name: namePath(refusal.field), errors: [text] }]);
        form.scrollToField(namePath(refusal.field), { block: "center" });
      }
    } finally {
      void queryClient.invalidateQueries();
    }
  };

  const busy = save.isPending || checking;

  return (
    <Drawer
      open={open}
      size={width}
      title={
        editing ? t("admin.instruments.editTitle", { symbol: row.symbol }) : t("admin.instruments.addTitle")
      }
      onClose={close}
      afterOpenChange={(visible) => {
        if (!visible) {
          setError(undefined);
          afterClose();
        }
      }}
      mask={{ closable: !busy }}
      destroyOnHidden
      footer={
        <Flex vertical gap={12}>
          {error && <Alert type="error" showIcon title={error} data-testid="admin-action-error" />}
          <Flex justify="flex-end" gap={8}>
            <Button onClick={close} disabled={busy}>
              {t("common.cancel")}
            </Button>
            <Button
              type="primary"
              onClick={() => void submit()}
              loading={busy}
              data-testid="admin-instrument-save"
            >
              {t("common.save")}
            </Button>
          </Flex>
        </Flex>
      }
      data-testid="admin-instrument-editor"
    >
      <Form<InstrumentInput>
        key={row?.symbol ?? "new"}
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={initial}
        onValuesChange={() => setError(undefined)}
        disabled={busy}
      >
        <InstrumentFields form={form} editing={editing} />
      </Form>
    </Drawer>
  );
}

/** The drawer's width: 760 px, or the whole screen when that is narrower. */
function useDrawerWidth(): number {
  const [width, setWidth] = useState(() => Math.min(760, window.innerWidth));
  useEffect(() => {
    const onResize = () => setWidth(Math.min(760, window.innerWidth));
    window.addEventListener("resize", onResize);
    return () => window.removeEventListener("resize", onResize);
  }, []);
  return width;
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <>
      <Divider titlePlacement="start" style={{ marginTop: 4 }}>
        {title}
      </Divider>
      {children}
    </>
  );
}

function InstrumentFields({ form, editing }: { form: FormInstance<InstrumentInput>; editing: boolean }) {
  const { t } = useTranslation();
  const required = (field: string): FormRule => ({
    required: true,
    whitespace: true,
    message: t("errors.FIELD_REQUIRED", { field: t(`fields.${field}`) }),
  });
  const upper = (v?: string) => v?.toUpperCase();
  const decimal = (
    field: "tickSize" | "lotSize" | "minQty" | "contractSize" | "referencePrice" | "volatility",
  ) => ({
    name: field,
    label: t(`fields.${field}`),
    validateFirst: true,
    rules: [required(field), zodRule(shape[field], t, field)],
  });

  return (
    <>
      <Section title={t("admin.instruments.section.listing")}>
        <Row gutter={12}>
          <Col xs={24} sm={10}>
            <Form.Item
              name="symbol"
              validateFirst
              label={t("fields.symbol")}
              extra={editing ? t("admin.instruments.hint.symbolLocked") : t("admin.instruments.hint.symbol")}
              normalize={upper}
              rules={[required("symbol"), zodRule(shape.symbol, t, "symbol")]}
            >
              <Input
                maxLength={32}
                disabled={editing}
                placeholder="BTCUSDT"
                style={{ fontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace" }}
                data-testid="admin-instrument-symbol"
              />
            </Form.Item>
          </Col>
          <Col xs={24} sm={14}>
            <Form.Item
              name="name"
              validateFirst
              label={t("fields.name")}
              rules={[required("name"), zodRule(shape.name, t, "name")]}
            >
              <Input maxLength={80} placeholder="Bitcoin" data-testid="admin-instrument-name" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={10}>
            <Form.Item
              name="category"
              label={t("fields.category")}
              rules={[zodRule(shape.category, t, "category")]}
            >
              <Select
                options={INSTRUMENT_CATEGORIES.map((c) => ({
                  value: c,
                  label: t(`admin.instruments.category.${c}`),
                }))}
                data-testid="admin-instrument-category-input"
              />
            </Form.Item>
          </Col>
          <Col xs={12} sm={7}>
            <Form.Item
              name="base"
              validateFirst
              label={t("fields.base")}
              normalize={upper}
              rules={[required("base"), zodRule(shape.base, t, "base")]}
            >
              <Input maxLength={16} placeholder="BTC" data-testid="admin-instrument-base" />
            </Form.Item>
          </Col>
          <Col xs={12} sm={7}>
            <Form.Item
              name="quote"
              validateFirst
              label={t("fields.quote")}
              normalize={upper}
              rules={[required("quote"), zodRule(shape.quote, t, "quote")]}
            >
              <Input maxLength={16} placeholder="USDT" data-testid="admin-instrument-quote" />
            </Form.Item>
          </Col>
        </Row>
      </Section>

      <Section title={t("admin.instruments.section.rules")}>
        <Row gutter={12}>
          <Col xs={12} sm={8}>
            <Form.Item {...decimal("tickSize")} extra={t("admin.instruments.hint.tickSize")}>
              <Input inputMode="decimal" placeholder="0.01" data-testid="admin-instrument-tickSize" />
            </Form.Item>
          </Col>
          <Col xs={12} sm={8}>
            <Form.Item {...decimal("lotSize")} extra={t("admin.instruments.hint.lotSize")}>
              <Input inputMode="decimal" placeholder="0.001" data-testid="admin-instrument-lotSize" />
            </Form.Item>
          </Col>
          <Col xs={12} sm={8}>
            <Form.Item
              {...decimal("minQty")}
              extra={t("admin.instruments.hint.minQty")}
              dependencies={["lotSize"]}
              rules={[
                ...decimal("minQty").rules,
                ({ getFieldValue }) => ({
                  validator: async (_, value: string | undefined) => {
                    const lot = String(getFieldValue("lotSize") ?? "").trim();
                    const min = String(value ?? "").trim();
                    if (!shape.minQty.safeParse(min).success || !shape.lotSize.safeParse(lot).success) {
                      return;
                    }
                    if (money(min).lt(lot)) {
                      throw new Error(t("admin.instruments.minBelowLot"));
                    }
                  },
                }),
              ]}
            >
              <Input inputMode="decimal" placeholder="0.001" data-testid="admin-instrument-minQty" />
            </Form.Item>
          </Col>
          <Col xs={12} sm={8}>
            <Form.Item {...decimal("contractSize")} extra={t("admin.instruments.hint.contractSize")}>
              <Input inputMode="decimal" placeholder="1" data-testid="admin-instrument-contractSize" />
            </Form.Item>
          </Col>
          <Col xs={12} sm={8}>
            <Form.Item
              name="maxLeverage"
              label={t("fields.maxLeverage")}
              rules={[zodRule(shape.maxLeverage, t, "maxLeverage")]}
            >
              <InputNumber
                min={1}
                max={200}
                precision={0}
                style={{ width: "100%" }}
                data-testid="admin-instrument-maxLeverage"
              />
            </Form.Item>
          </Col>
          <Col xs={12} sm={8}>
            <Form.Item
              name="displayDecimals"
              label={t("fields.displayDecimals")}
              rules={[zodRule(shape.displayDecimals, t, "displayDecimals")]}
            >
              <Select
                options={DISPLAY_DECIMALS.map((d) => ({ value: d, label: String(d) }))}
                data-testid="admin-instrument-displayDecimals"
              />
            </Form.Item>
          </Col>
          <Col xs={24}>
            <Form.Item name="kinds" label={t("fields.kinds")} rules={[zodRule(shape.kinds, t, "kinds")]}>
              <Checkbox.Group
                options={TRADING_KINDS.map((k) => ({ value: k, label: t(`admin.instruments.kind.${k}`) }))}
                data-testid="admin-instrument-kinds"
              />
            </Form.Item>
          </Col>
        </Row>
      </Section>

      <Section title={t("admin.instruments.section.simulation")}>
        <Row gutter={12}>
          <Col xs={12}>
            <Form.Item {...decimal("referencePrice")} extra={t("admin.instruments.hint.referencePrice")}>
              <Input inputMode="decimal" placeholder="91250" data-testid="admin-instrument-referencePrice" />
            </Form.Item>
          </Col>
          <Col xs={12}>
            <Form.Item {...decimal("volatility")} extra={t("admin.instruments.hint.volatility")}>
              <Input inputMode="decimal" placeholder="0.6" data-testid="admin-instrument-volatility" />
            </Form.Item>
          </Col>
        </Row>
      </Section>

      <Section title={t("fields.tradingHours")}>
        <SessionsEditor form={form} />
      </Section>

      <Section title={t("admin.instruments.section.listingOrder")}>
        <Row gutter={12}>
          <Col xs={12}>
            <Form.Item
              name="sort"
              label={t("fields.sort")}
              extra={t("admin.instruments.hint.sort")}
              rules={[zodRule(shape.sort, t, "sort")]}
            >
              <InputNumber
                min={0}
                max={1_000_000}
                precision={0}
                style={{ width: "100%" }}
                data-testid="admin-instrument-sort"
              />
            </Form.Item>
          </Col>
          <Col xs={12}>
            <Form.Item
              name="enabled"
              label={t("fields.enabled")}
              valuePropName="checked"
              extra={t("admin.instruments.hint.enabled")}
            >
              <Switch data-testid="admin-instrument-enabled" />
            </Form.Item>
          </Col>
        </Row>
      </Section>
    </>
  );
}

const MAX_SESSIONS = 14;

/** The time zone and the weekly sessions; no session means open around the clock. */
function SessionsEditor({ form }: { form: FormInstance<InstrumentInput> }) {
  const { t } = useTranslation();
  const names = useWeekdayNames();
  const zone = Form.useWatch(["tradingHours", "timeZone"], form);
  const zones = useZoneOptions(zone);
  const dayOptions = WEEK.map((d) => ({ value: d, label: names[d] }));
  const clockRule = (field: "open" | "close") => zodRule(sessionShape[field], t, field);

  return (
    <>
      <Form.Item
        name={["tradingHours", "timeZone"]}
        label={t("fields.timeZone")}
        rules={[
          zodRule(tradingHoursSchema.shape.timeZone, t, "timeZone"),
          {
            validator: async (_, value: unknown) => {
              if (!isKnownZone(value)) {
                throw new Error(t("errors.FIELD_INVALID", { field: t("fields.timeZone") }));
              }
            },
          },
        ]}
      >
        <Select
          showSearch={{ optionFilterProp: "label" }}
          options={zones}
          style={{ maxWidth: 360 }}
          data-testid="admin-instrument-timeZone"
        />
      </Form.Item>
      <Form.List name={["tradingHours", "sessions"]}>
        {(fields, { add, remove }) => (
          <Flex vertical gap={8}>
            {fields.length === 0 ? (
              <Alert type="success" showIcon title={t("admin.instruments.noSessions")} />
            ) : (
              <Typography.Text type="secondary">{t("admin.instruments.sessionsHint")}</Typography.Text>
            )}
            {fields.map((field) => (
              <Flex
                key={field.key}
                gap={8}
                align="flex-start"
                wrap
                data-testid={`admin-instrument-session-${field.name}`}
              >
                <Form.Item
                  name={[field.name, "days"]}
                  label={field.name === 0 ? t("fields.days") : undefined}
                  rules={[zodRule(sessionShape.days, t, "days")]}
                  style={{ flex: "1 1 240px", minWidth: 0, marginBottom: 8 }}
                >
                  <Select
                    mode="multiple"
                    options={dayOptions}
                    maxTagCount="responsive"
                    aria-label={t("fields.days")}
                  />
                </Form.Item>
                <Form.Item
                  name={[field.name, "open"]}
                  label={field.name === 0 ? t("fields.open") : undefined}
                  rules={[clockRule("open")]}
                  style={{ width: 110, marginBottom: 8 }}
                >
                  <Input
                    maxLength={5}
                    placeholder={t("admin.instruments.timePlaceholder")}
                    aria-label={t("fields.open")}
                    style={{ fontVariantNumeric: "tabular-nums" }}
                  />
                </Form.Item>
                <Form.Item
                  name={[field.name, "close"]}
                  validateFirst
                  label={field.name === 0 ? t("fields.close") : undefined}
                  dependencies={[["tradingHours", "sessions", field.name, "open"]]}
                  rules={[
                    clockRule("close"),
                    ({ getFieldValue }) => ({
                      validator: async (_, value: unknown) => {
                        const openAt = getFieldValue(["tradingHours", "sessions", field.name, "open"]);
                        const valid = (v: unknown) => sessionShape.open.safeParse(v).success;
                        // "HH:MM" compares as text; "24:00" sorts after every other time.
                        if (valid(openAt) && valid(value) && String(value) <= String(openAt)) {
                          throw new Error(t("admin.instruments.closeAfterOpen"));
                        }
                      },
                    }),
                  ]}
                  style={{ width: 110, marginBottom: 8 }}
                >
                  <Input
                    maxLength={5}
                    placeholder={t("admin.instruments.timePlaceholder")}
                    aria-label={t("fields.close")}
                    style={{ fontVariantNumeric: "tabular-nums" }}
                  />
                </Form.Item>
                <Form.Item label={field.name === 0 ? " " : undefined} style={{ marginBottom: 8 }}>
                  <Tooltip title={t("admin.instruments.removeSession")}>
                    <Button
                      type="text"
                      danger
                      icon={<MinusCircleOutlined />}
                      aria-label={t("admin.instruments.removeSession")}
                      onClick={() => remove(field.name)}
                    />
                  </Tooltip>
                </Form.Item>
              </Flex>
            ))}
            <Button
              type="dashed"
              icon={<PlusOutlined />}
              onClick={() => add(NEW_SESSION)}
              disabled={fields.length >= MAX_SESSIONS}
              style={{ alignSelf: "flex-start", marginBottom: 16 }}
              data-testid="admin-instrument-add-session"
            >
              {t("admin.instruments.addSession")}
            </Button>
          </Flex>
        )}
      </Form.List>
    </>
  );
}
