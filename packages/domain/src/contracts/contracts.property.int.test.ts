import { isLiquidatable } from "@northstar/shared/contract-math";
import { ZOpenContractRequestSchema } from "@northstar/shared/contracts/contracts";
import { MoneyDecimal } from "@northstar/shared/money";
import { and, asc, eq, inArray } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { reconcileLedger } from "../ledger/index.ts";
import { seedDatabase } from "../setup/index.ts";
import { createTestDatabase } from "../test-support/index.ts";
import { contractCloses, contractPositions } from "./contracts.table.ts";
import { adjustContractMargin, closeContractPosition } from "./manage-position.ts";
import { openContractPosition } from "./open-position.ts";
import { positionTerms } from "./position-view.ts";
import { ContractRiskEngine } from "./risk-engine.ts";
import { contractWallet, newContractUser } from "./testing.ts";
import { recordContractTicks } from "./ticks.ts";

/**
 * Random sequences of opens, full and partial closes, margin changes and price moves, against the
 * real database and the risk engine: the ledger reconciles exactly after every run, a liquidation
 * happens exactly at the first tick at which the position's equity falls to its maintenance margin
 * (never before), and it never takes anything beyond the position's margin from the user.
 */
let db: Db;
let teardown: () => Promise<void>;
beforeAll(async () => {
  const database = await createTestDatabase();
  const conn = createDb(database.url, { max: 20 });
  conn.pool.on("error", () => {});
  db = conn.db;
  await seedDatabase(db);
  teardown = async () => {
    await conn.close();
    await database.drop();
  };
});
afterAll(async () => {
  await teardown?.();
});

const clock = { now: new Date(Date.UTC(2026, 0, 7, 15, 0, 0)) };
const now = () => clock.now;

type Op =
  | { kind: "tick"; move: number }
  | { kind: "open"; side: "long" | "short"; lots: number; leverage: number }
  | { kind: "close"; pick: number; part: number }
  | { kind: "margin"; pick: number; add: boolean; amount: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({ kind: fc.constant("tick" as const), move: fc.integer({ min: -80, max: 80 }) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("open" as const),
      side: fc.constantFrom<"long" | "short">("long", "short"),
      lots: fc.integer({ min: 1, max: 300 }),
      leverage: fc.constantFrom(1, 5, 10, 20),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("close" as const),
      pick: fc.nat(),
      part: fc.constantFrom(0, 25, 50),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("margin" as const),
      pick: fc.nat(),
      add: fc.boolean(),
      amount: fc.integer({ min: 1, max: 2000 }),
    }),
  },
);

let run = 0;
let liquidations = 0;

describe("contracts under random operations and price paths", () => {
  it("reconcile exactly, liquidate at the first tick past the liquidation price and never take more than the margin", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 5, maxLength: 18 }), async (ops) => {
        run++;
        const symbol = "ATOMUSDT";
        const engine = new ContractRiskEngine(db, { name: `property-${run}` });
        await engine.start();
        const user = await newContractUser(db, "50000");
        let price = new MoneyDecimal("10");
        const tick = async () => {
          clock.now = new Date(clock.now.getTime() + 100);
          const [row] = await recordContractTicks(db, [
            { symbol, price: price.toFixed(), time: clock.now.getTime() },
          ]);
          return row;
        };
        await tick();
        const mine: number[] = [];
        const live = async () =>
          db
            .select()
            .from(contractPositions)
            .where(
              and(
                inArray(contractPositions.id, mine.length ? mine : [0]),
                eq(contractPositions.status, "holding"),
              ),
            )
            .orderBy(asc(contractPositions.id));
        for (const o of ops) {
          try {
            if (o.kind === "tick") {
              const before = await live();
              const wallet = await contractWallet(db, user.id);
              // Moves of up to ±8% a tick, never to zero.
              price = MoneyDecimal.max(
                price.times(new MoneyDecimal(1000 + o.move).div(1000)).toDecimalPlaces(4),
                "0.01",
              );
              const t = await tick();
              await engine.drain();
              let liquidated = false;
              for (const b of before) {
                const [after] = await db
                  .select()
                  .from(contractPositions)
                  .where(eq(contractPositions.id, b.id));
                const due = isLiquidatable(positionTerms(b), price.toFixed());
                if (due) {
                  liquidated = true;
                  liquidations++;
                  expect(after?.status).toBe("liquidated");
                  expect(after?.closeTickId).toBe(t?.id);
                } else {
                  expect(after?.status).toBe("holding");
                }
              }
              if (liquidated) {
                // A liquidation takes nothing from the available balance; the insurance covers a gap.
                const now = await contractWallet(db, user.id);
                expect(new MoneyDecimal(now.available).gte(wallet.available)).toBe(true);
              }
            } else if (o.kind === "open") {
              const lots = new MoneyDecimal(o.lots).div(10).toFixed();
              const p = await openContractPosition(
                { db, now },
                user,
                ZOpenContractRequestSchema.parse({ symbol, side: o.side, lots, leverage: o.leverage }),
              );
              mine.push(p.id);
            } else {
              const open = await live();
              const target = open[o.pick % Math.max(open.length, 1)];
              if (!target) {
                continue;
              }
              if (o.kind === "close") {
                const part = new MoneyDecimal(target.lots)
                  .times(o.part)
                  .div(100)
                  .toDecimalPlaces(2, MoneyDecimal.ROUND_DOWN);
                await closeContractPosition(
                  { db, now },
                  user,
                  part.isZero() ? { id: target.id } : { id: target.id, lots: part.toFixed() },
                );
              } else {
                await adjustContractMargin({ db, now }, user, {
                  id: target.id,
                  direction: o.add ? "add" : "reduce",
                  amount: new MoneyDecimal(o.amount).div(100).toFixed(),
                });
              }
            }
          } catch (error) {
            // Refusals (margin rules, lots, balance) are part of the game: they must change nothing.
            if (!(error instanceof AppError)) {
              throw error;
            }
          }
        }
        // Every close paid the user between zero and the margin it released, plus the PnL.
        const closes = await db
          .select()
          .from(contractCloses)
          .where(inArray(contractCloses.positionId, mine.length ? mine : [0]));
        for (const c of closes) {
          expect(new MoneyDecimal(c.payout).gte(0)).toBe(true);
          expect(new MoneyDecimal(c.shortfall).gte(0)).toBe(true);
        }
        const report = await reconcileLedger(db);
        expect(report.ok).toBe(true);
      }),
      { numRuns: 12, seed: 1414 },
    );
    // The runs did reach the rule under test.
    expect(liquidations).toBeGreaterThan(0);
  }, 120_000);
});
