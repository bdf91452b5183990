import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { IntMap } from "./int-map.ts";

type Op = { t: "set" | "delete" | "get"; key: number };

// Few distinct keys so that sets, deletes and lookups meet; some share their low bits, some are huge.
const keyArb = fc.oneof(
  fc.integer({ min: 0, max: 40 }),
  fc.integer({ min: 0, max: 40 }).map((k) => k * 2 ** 20),
  fc.integer({ min: 0, max: 5 }).map((k) => Number.MAX_SAFE_INTEGER - k),
  fc.integer({ min: -5, max: -1 }),
);
const opArb: fc.Arbitrary<Op> = fc.record({ t: fc.constantFrom("set", "delete", "get"), key: keyArb });

describe("IntMap", () => {
  it("behaves like a Map under random sets, deletes and lookups, through growth", () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 400, size: "max" }), (ops) => {
        const map = new IntMap<{ v: number }>(4);
        const model = new Map<number, { v: number }>();
        // Plain comparisons, expect() only on a mismatch: it is slow for tens of thousands of checks.
        ops.forEach((op, i) => {
          let same = true;
          if (op.t === "set") {
            const value = { v: i };
            map.set(op.key, value);
            model.set(op.key, value);
          } else if (op.t === "delete") {
            same = map.delete(op.key) === model.delete(op.key);
          } else {
            same = map.get(op.key) === model.get(op.key);
          }
          if (!same || map.size !== model.size) {
            expect.fail(`op ${i} (${op.t} ${op.key}) disagrees with Map`);
          }
        });
        for (const [key, value] of model) {
          expect(map.get(key)).toBe(value);
          expect(map.has(key)).toBe(true);
        }
        const seen = new Map<number, { v: number }>();
        map.forEach((value, key) => {
          seen.set(key, value);
        });
        expect(seen).toEqual(model);
      }),
      { numRuns: 300 },
    );
  });

  it("keeps every entry findable after many deletions in long probe runs", () => {
    const map = new IntMap<{ k: number }>(16);
    const keys = Array.from({ length: 5000 }, (_, i) => i * 1024);
    for (const k of keys) {
      map.set(k, { k });
    }
    for (let i = 0; i < keys.length; i += 3) {
      map.delete(keys[i] as number);
    }
    keys.forEach((k, i) => {
      expect(map.get(k)?.k).toBe(i % 3 === 0 ? undefined : k);
    });
    expect(map.size).toBe(5000 - Math.ceil(5000 / 3));
  });
});
