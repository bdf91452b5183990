import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { type Platform, ROOT } from "./platform.ts";

/** The sizes, themes and languages every module's screenshots are taken in. */
export const SHOT_SIZES = [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1280, height: 800 },
] as const;
export const SHOT_THEMES = ["light", "dark"] as const;
export const SHOT_LANGUAGES = ["en", "zh", "ty"] as const;

export interface ShotPage {
  name: string;
  path: string;
  /** waits until the page shows what the picture is of */
  ready: (page: Page) => Promise<unknown>;
}

/**
 * Takes each page signed in as `token` (and, for back-office pages, as the operator of
 * `operatorToken`), at phone and desktop size, light and dark, in English,
 * Simplified Chinese and Thai, into docs/screenshots/<folder>/<name>-<lang>-<theme>-<size>.png.
 */
export async function shootMatrix(
  platform: Platform,
  options: {
    folder: string;
    token: string;
    pages: ShotPage[];
    operatorToken?: string;
    /** only these sizes (the back office is used at a desk) */
    sizes?: readonly (typeof SHOT_SIZES)[number]["name"][];
  },
): Promise<void> {
  const out = join(ROOT, "docs/screenshots", options.folder);
  mkdirSync(out, { recursive: true });
  for (const lang of SHOT_LANGUAGES) {
    for (const theme of SHOT_THEMES) {
      for (const size of SHOT_SIZES.filter((s) => !options.sizes || options.sizes.includes(s.name))) {
        const context = await platform.newContext({ width: size.width, height: size.height });
        await context.addInitScript(
          ([l, th, t, op]) => {
            localStorage.setItem("lang", l);
            localStorage.setItem("theme", th);
            localStorage.setItem("token", t);
            // The back office keeps its operator token per tab (see operator-session.ts).
            if (op) {
              sessionStorage.setItem("operatorToken", op);
            }
          },
          [lang, theme, options.token, options.operatorToken ?? ""] as const,
        );
        const page = await context.newPage();
        for (const shot of options.pages) {
          await page.goto(shot.path);
          await shot.ready(page);
          await page.screenshot({ path: join(out, `${shot.name}-${lang}-${theme}-${size.name}.png`) });
        }
        await context.close();
      }
    }
  }
}

/**
 * A screenshot test takes a dozen to two dozen shots, each a page load: more than the default test
 * time when two browser tests share the machine's two cores.
 */
export const SCREENSHOT_TEST_TIMEOUT_MS = 240_000;
