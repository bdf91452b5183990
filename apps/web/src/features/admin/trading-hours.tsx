import { MinusCircleOutlined, PlusOutlined } from "@ant-design/icons";
import { LANGUAGE_INFO } from "@northstar/shared/languages";
import { type InstrumentInput, type TradingHours, tradingHoursSchema } from "@northstar/shared/markets";
import type { FormInstance } from "antd";
import { Alert, Button, Flex, Form, Input, Select, Tag, Tooltip, Typography } from "antd";
import type { TFunction } from "i18next";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { zodRule } from "../../lib/form-rules.ts";
import { useLanguage } from "../../lib/session.ts";

/* An instrument's trading hours: the summary the catalogue shows and the editor the form uses. */

type Session = TradingHours["sessions"][number];

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
export function HoursSummary({ hours }: { hours: TradingHours }) {
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

const sessionShape = tradingHoursSchema.shape.sessions.element.shape;

const MAX_SESSIONS = 14;

/** The time zone and the weekly sessions; no session means open around the clock. */
export function SessionsEditor({ form }: { form: FormInstance<InstrumentInput> }) {
  const { t } = useTranslation();
  const names = useWeekdayNames();
  const zone = Form.useWatch(["tradingHours", "timeZone"], form);
  const zones = useZoneOptions(zone);
  const dayOptions = WEEK.map((d) => ({ value: d, label: names[d] }));
  const clockRule = (field: "open" | "close") => zodRule(sessionShape[field], t, field);
  const clockInput = (field: "open" | "close") => (
    <Input
      maxLength={5}
      placeholder={t("admin.instruments.timePlaceholder")}
      aria-label={t(`fields.${field}`)}
      style={{ fontVariantNumeric: "tabular-nums" }}
    />
  );
  // Only the first session's row carries labels; the rows below line up under them.
  const label = (index: number, field: "days" | "open" | "close") =>
    index === 0 ? t(`fields.${field}`) : undefined;

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
                  label={label(field.name, "days")}
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
                  label={label(field.name, "open")}
                  rules={[clockRule("open")]}
                  style={{ width: 110, marginBottom: 8 }}
                >
                  {clockInput("open")}
                </Form.Item>
                <Form.Item
                  name={[field.name, "close"]}
                  validateFirst
                  label={label(field.name, "close")}
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
                  {clockInput("close")}
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
