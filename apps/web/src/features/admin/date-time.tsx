import { LANGUAGE_INFO } from "@northstar/shared/languages";
import { Flex, Typography } from "antd";
import { useMemo } from "react";
import { useLanguage } from "../../lib/session.ts";

type TimeValue = string | number | Date | null | undefined;

function toDate(value: TimeValue): Date | null {
  if (value === null || value === undefined || value === "") {
    return null;
  }
  const date = typeof value === "number" ? new Date(value * 1000) : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** Date and time in the interface language; accepts an ISO string, a Date or unix seconds. */
export function useFormatDateTime(): {
  dateTime: (value: TimeValue) => string;
  date: (value: TimeValue) => string;
  time: (value: TimeValue) => string;
} {
  const lang = useLanguage();
  return useMemo(() => {
    const locale = LANGUAGE_INFO[lang].bcp47;
    const both = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "medium" });
    const day = new Intl.DateTimeFormat(locale, { dateStyle: "medium" });
    const clock = new Intl.DateTimeFormat(locale, { timeStyle: "medium" });
    const fmt = (format: Intl.DateTimeFormat) => (value: TimeValue) => {
      const date = toDate(value);
      return date ? format.format(date) : value ? String(value) : "—";
    };
    return { dateTime: fmt(both), date: fmt(day), time: fmt(clock) };
  }, [lang]);
}

/** A moment on one line, or `stacked` as the date over the time (for narrow table columns). */
export function DateTime({ value, stacked = false }: { value: TimeValue; stacked?: boolean }) {
  const format = useFormatDateTime();
  if (stacked && toDate(value)) {
    return (
      <Flex vertical style={{ whiteSpace: "nowrap" }}>
        <span>{format.date(value)}</span>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {format.time(value)}
        </Typography.Text>
      </Flex>
    );
  }
  return <span style={{ whiteSpace: "nowrap" }}>{format.dateTime(value)}</span>;
}
