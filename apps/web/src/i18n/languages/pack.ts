import type { Catalog } from "@northstar/shared/i18n";
import type { Locale } from "antd/es/locale";

/**
 * What one interface language needs: its texts, Ant Design's texts (date pickers, pagination,
 * empty states) and the dayjs locale it registers. One module per language, loaded on demand, so a
 * page downloads only the language it shows.
 */
export interface LanguagePack {
  catalog: Catalog;
  /** The page namespaces' loaders, by namespace: kept in each language's own module, not the shell. */
  pages: Record<string, () => Promise<Record<string, unknown>>>;
  antd: Locale;
  dayjs: string;
}

/** The shared catalog files of one language, keyed by namespace (the file's name). */
export function byNamespace(files: Record<string, unknown>): Catalog {
  return Object.fromEntries(
    Object.entries(files).map(([path, json]) => [
      path.slice(path.lastIndexOf("/") + 1, -".json".length),
      json,
    ]),
  ) as Catalog;
}

/** The lazily loaded catalog files of one language, keyed by namespace. */
export function byPageNamespace(
  files: Record<string, () => Promise<Record<string, unknown>>>,
): LanguagePack["pages"] {
  return Object.fromEntries(
    Object.entries(files).map(([path, load]) => [
      path.slice(path.lastIndexOf("/") + 1, -".json".length),
      load,
    ]),
  );
}
