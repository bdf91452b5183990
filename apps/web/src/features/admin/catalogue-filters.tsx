import { INSTRUMENT_CATEGORIES, type InstrumentCategory } from "@northstar/shared/markets";
import { Input } from "antd";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";

/** Page sizes the server accepts (admin.instruments takes at most 200 a page). */
export const PAGE_SIZES = [20, 50, 100, 200];

const DEFAULT_PAGE_SIZE = 50;

/** The server's bound on the search text (ZMarketListRequestSchema). */
const SEARCH_MAX = 32;

/** Search text, category and page in the URL (?q=, ?category=, ?page=, ?size=), so a view can be linked to. */
export function useCatalogueFilters() {
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
export function SearchBox({ value, onChange }: { value: string; onChange: (q: string) => void }) {
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
