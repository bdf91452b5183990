import type { Language } from "@northstar/shared/languages";
import en from "./en.json" with { type: "json" };
import ft from "./ft.json" with { type: "json" };
import hy from "./hy.json" with { type: "json" };
import jp from "./jp.json" with { type: "json" };
import ty from "./ty.json" with { type: "json" };
import xby from "./xby.json" with { type: "json" };
import yn from "./yn.json" with { type: "json" };
import zh from "./zh.json" with { type: "json" };

interface SeedText {
  title: string;
  summary?: string;
  body: string;
}
/** One language's seed content: pages by fixed id, then news and announcements in order. */
interface SeedLanguage {
  pages: Record<string, SeedText>;
  news: SeedText[];
  announcements: SeedText[];
}

const byLanguage: Record<Language, SeedLanguage> = { en, xby, jp, hy, ty, yn, zh, ft };

export interface SeedItem {
  id?: number;
  kind: "page" | "news" | "announcement";
  sort?: number;
  publishedAt?: Date;
  texts: Partial<Record<Language, SeedText>>;
}

function collect(get: (l: SeedLanguage) => SeedText | undefined) {
  return Object.fromEntries(
    (Object.keys(byLanguage) as Language[]).flatMap((lang) => {
      const t = get(byLanguage[lang]);
      return t ? [[lang, t]] : [];
    }),
  ) as Partial<Record<Language, SeedText>>;
}

const DAY = 86_400_000;
const now = Date.now();

/** Pages keep ids 1–5 (1 company profile, 3 user agreement, 5 privacy terms); articles follow. */
export const SEED_CONTENT: SeedItem[] = [
  ...Object.keys(en.pages).map((id) => ({
    id: Number(id),
    kind: "page" as const,
    texts: collect((l) => l.pages[id]),
  })),
  ...en.news.map((_, i) => ({
    kind: "news" as const,
    publishedAt: new Date(now - i * DAY),
    texts: collect((l) => l.news[i]),
  })),
  ...en.announcements.map((_, i) => ({
    kind: "announcement" as const,
    publishedAt: new Date(now - i * DAY),
    texts: collect((l) => l.announcements[i]),
  })),
];
