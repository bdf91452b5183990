import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { expect } from "vitest";
import { type Platform, screenshotsDir } from "./platform.ts";

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
 * The shots a run takes. `SHOTS=all` takes every language × theme × size (the pictures under
 * docs/screenshots, for people to look at); otherwise one shot per language, rotating the theme and
 * the size so that together they still cover both themes and both sizes: each shot is also a layout
 * check, and twelve page loads of each page would mostly repeat the same check.
 */
export function shotCombinations(all = process.env.SHOTS === "all") {
  const combinations: { lang: string; theme: string; size: (typeof SHOT_SIZES)[number] }[] = [];
  SHOT_LANGUAGES.forEach((lang, i) => {
    for (const theme of SHOT_THEMES) {
      for (const size of SHOT_SIZES) {
        const rotated = theme === SHOT_THEMES[i % 2] && size === SHOT_SIZES[(i + 1) % 2];
        if (all || rotated) {
          combinations.push({ lang, theme, size });
        }
      }
    }
  });
  return combinations;
}

/**
 * Takes each page signed in as `token` (and, for back-office pages, as the operator of
 * `operatorToken`) in the combinations of `shotCombinations` into
 * docs/screenshots/<folder>/<name>-<lang>-<theme>-<size>.png, and checks each: the page shows what
 * the picture is of (`ready`), nothing is wider than the window, and no text it asked for is
 * missing from the language's catalogue.
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
  const out = screenshotsDir(options.folder);
  mkdirSync(out, { recursive: true });
  const combinations = shotCombinations().filter(
    (c) => !options.sizes || options.sizes.includes(c.size.name),
  );
  for (const { lang, theme, size } of combinations) {
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
      const name = `${shot.name}-${lang}-${theme}-${size.name}`;
      await page.goto(shot.path);
      await shot.ready(page);
      await page.screenshot({ path: join(out, `${name}.png`) });
      const layout = await page.evaluate(() => ({
        width: document.documentElement.scrollWidth,
        // what sticks out past the window's right edge and is not clipped by a scrolling box, to name
        outside: Array.from(document.body.querySelectorAll("*"))
          .filter((e) => {
            if (e.getBoundingClientRect().right <= window.innerWidth + 1) {
              return false;
            }
            for (let up = e.parentElement; up && up !== document.body; up = up.parentElement) {
              if (getComputedStyle(up).overflowX !== "visible") {
                return false;
              }
            }
            return true;
          })
          .slice(0, 4)
          .map(
            (e) =>
              `${e.tagName.toLowerCase()}.${Array.from(e.classList).join(".")} "${e.textContent?.slice(0, 30)}"`,
          ),
        // the web app lists the texts it asked for and did not find (apps/web/src/i18n)
        keys: (window as { northstarMissingKeys?: () => string[] }).northstarMissingKeys?.() ?? [
          "(no texts loaded)",
        ],
      }));
      expect(
        layout.width,
        `${name} is wider than the window: ${layout.outside.join(", ")}`,
      ).toBeLessThanOrEqual(size.width);
      expect(layout.keys, `${name} asks for texts the catalogue lacks`).toEqual([]);
    }
    await context.close();
  }
}

/**
 * A screenshot test takes a dozen to two dozen shots, each a page load: more than the default test
 * time when two browser tests share the machine's two cores.
 */
export const SCREENSHOT_TEST_TIMEOUT_MS = 240_000;
