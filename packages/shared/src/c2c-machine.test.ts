import { describe, expect, it } from "vitest";
import { type Actor, c2cOrderMachine, findTransition } from "./state-machines/index.ts";

/** The C2C order machine allows exactly these moves, each only to its actors; every other is refused. */
const ALLOWED: Record<string, Actor[]> = {
  "unmatched>matched": ["system", "operator"],
  "unmatched>expired": ["system"],
  "unmatched>rejected": ["operator"],
  "matched>paid": ["user"],
  "matched>expired": ["system"],
  "matched>rejected": ["operator"],
  "unmatched>cancelled": ["user"],
  "matched>cancelled": ["user"],
  "paid>completed": ["operator"],
  "paid>rejected": ["operator"],
};

describe("c2c order machine", () => {
  it("allows every listed transition to its actors only, and nothing else (final states stay final)", () => {
    for (const from of c2cOrderMachine.states) {
      for (const to of c2cOrderMachine.states) {
        for (const by of ["user", "operator", "system"] as const) {
          const allowed = ALLOWED[`${from}>${to}`]?.includes(by) ?? false;
          expect(
            findTransition(c2cOrderMachine, from, to, by) !== undefined,
            `${from} → ${to} by ${by}`,
          ).toBe(allowed);
        }
      }
    }
  });
});
