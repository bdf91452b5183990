import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { catalogs } from "@northstar/shared/i18n";
import { LANGUAGES } from "@northstar/shared/languages";
import { describe, expect, it } from "vitest";

const SRC = fileURLToPath(new URL("..", import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) {
      // Test helpers grant money with kinds of their own (`test.grant`).
      return e.name === "test-support" || e.name === "test" ? [] : sources(path);
    }
    return e.name.endsWith(".ts") && !e.name.endsWith(".test.ts") && e.name !== "testing.ts" ? [path] : [];
  });
}

/**
 * The kinds of journal entries that reach a user's records page: literal ones are read from every
 * entry the domain builds (an object with `kind` and, below it, `postings`); kinds built from a
 * status or reason are listed from their state machines and close reasons.
 */
function entryKinds(): Set<string> {
  const kinds = new Set<string>();
  for (const file of sources(SRC)) {
    const text = readFileSync(file, "utf8");
    for (const m of text.matchAll(
      // `postings` below the kind in the same function: a message's kind above the next function is not one.
      /kind: (?:[a-z]+ \? "([a-z0-9_.]+)" : )?"([a-z0-9_.]+)",(?:(?!\n\}\n)[\s\S]){0,600}?postings/g,
    )) {
      for (const k of [m[1], m[2]]) {
        if (k?.includes(".")) {
          kinds.add(k);
        }
      }
    }
  }
  for (const status of ["won", "lost", "tied"]) {
    kinds.add(`option.${status}`);
  }
  for (const reason of ["user", "take_profit", "stop_loss", "liquidation", "delivery"]) {
    kinds.add(`contract.close.${reason}`);
  }
  return kinds;
}

/** Merchants' stock moves, the marketing budget and chain custody (sweeps, gas, hot-wallet top-ups) never post to a user's account. */
const SYSTEM_ONLY = new Set([
  "c2c.stock.fund",
  "c2c.stock.withdraw",
  "rewards.budget.fund",
  "chain.gas",
  "chain.hot_top_up",
  "chain.sweep.settle",
  "chain.sweep.top_up",
]);

describe("money records name what each entry was", () => {
  const kinds = [...entryKinds()].filter((k) => !SYSTEM_ONLY.has(k)).sort();

  it("finds the entries the modules post", () => {
    // A guard on the scan itself: these must be found, or the pattern has stopped matching.
    for (const k of [
      "deposit.confirm",
      "spot.trade",
      "earn.yield",
      "loan.disburse",
      "c2c.complete",
      "rewards.sign_in",
    ]) {
      expect(kinds).toContain(k);
    }
  });

  it.each(LANGUAGES)("has a name for every entry kind in %s", (lang) => {
    const names = (catalogs[lang].assets as { kinds: Record<string, string> }).kinds;
    expect(kinds.filter((k) => !names[k])).toEqual([]);
  });
});
