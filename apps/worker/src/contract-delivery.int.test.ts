import {
  deliverDueContracts,
  getContractPosition,
  listContractProducts,
  openContractPosition,
  recordContractTicks,
} from "@northstar/domain/contracts";
import type { Db } from "@northstar/domain/db";
import { reconcileLedger } from "@northstar/domain/ledger";
import { setPolicy } from "@northstar/domain/policy";
import { JOBS, QUEUES } from "@northstar/shared/jobs";
import { QueueEvents } from "bullmq";
import { beforeAll, describe, expect, it } from "vitest";
import { newContractUser } from "../../../packages/domain/src/contracts/testing.ts";
import { startContractDeliveryWorker } from "./queues/contract-delivery.ts";
import { useWorkerTestBed, type WorkerTestBed } from "./test/queue-test-bed.ts";

/**
 * The contract-delivery queue: a delivery contract expired while no worker ran is settled when one
 * starts, at the first price recorded at or after its expiry; a job delivered twice settles once.
 */
const bed = useWorkerTestBed("delivery");
const { redis, prefix } = bed;
let db: Db;
let pool: WorkerTestBed["pool"];
let clock = new Date("2026-03-04T15:00:00Z");
const deps = () => ({ db, now: () => clock, log: () => {} });

beforeAll(() => {
  ({ db, pool } = bed);
});

describe("the contract-delivery queue", () => {
  it("the seeded weekly bitcoin contract rolls: a position keeps its expiry and is delivered at the first price after it; the product offers the next week", async () => {
    // Wednesday 25 February 2026: the seeded catalogue's weekly contract expires on Friday at 08:00 UTC
    // (policy contracts.deliveryTime), the quarterly one on the last Friday of March.
    const wednesday = new Date("2026-02-25T15:00:00Z");
    const friday = new Date("2026-02-27T08:00:00Z");
    const products = await listContractProducts(db, wednesday);
    const weekly = products.find((p) => p.symbol === "BTCUSDT-W");
    expect(weekly).toMatchObject({ type: "delivery", expires_at: friday.toISOString(), open: true });
    expect(products.find((p) => p.symbol === "ETHUSDT-Q")).toMatchObject({
      type: "delivery",
      expires_at: "2026-03-27T08:00:00.000Z",
    });
    expect(products.find((p) => p.symbol === "BTCUSDT")).toMatchObject({
      type: "perpetual",
      expires_at: null,
    });

    const user = await newContractUser(db, "10000");
    await recordContractTicks(db, [{ symbol: "BTCUSDT-W", price: "90000", time: wednesday.getTime() - 100 }]);
    const p = await openContractPosition({ db, now: () => wednesday }, user, {
      symbol: "BTCUSDT-W",
      side: "short",
      order_type: "market",
      lots: "0.01",
      leverage: 10,
    });
    expect(p).toMatchObject({ type: "delivery", expires_at: friday.toISOString() });
    const [settling] = await recordContractTicks(db, [
      { symbol: "BTCUSDT-W", price: "89500.5", time: friday.getTime() + 250 },
      { symbol: "BTCUSDT-W", price: "95000", time: friday.getTime() + 5_000 },
    ]);
    // The same Friday, a minute after the expiry: the product now offers the next week.
    const after = new Date(friday.getTime() + 60_000);
    expect((await listContractProducts(db, after)).find((x) => x.symbol === "BTCUSDT-W")?.expires_at).toBe(
      "2026-03-06T08:00:00.000Z",
    );
    expect(await deliverDueContracts(db, after)).toEqual({ delivered: 1, waiting: 0 });
    expect(await deliverDueContracts(db, after)).toEqual({ delivered: 0, waiting: 0 });
    const { position, closes } = await getContractPosition(db, user, p.id);
    expect(position).toMatchObject({ status: "closed", close_reason: "delivery", exit_price: "89500.5" });
    // Short 0.01 from 90000 to 89500.5: pnl 4.995; the close names the tick it settled at.
    expect(closes).toHaveLength(1);
    expect(closes[0]?.pnl).toBe("4.995");
    const tick = await pool.query("select tick_id from contract_closes where position_id = $1", [p.id]);
    expect(Number(tick.rows[0].tick_id)).toBe(settling?.id);
    expect((await reconcileLedger(db)).ok).toBe(true);
  });

  it("settles an expired delivery contract once, at the first price recorded at or after its expiry", async () => {
    const expiry = new Date("2026-03-06T08:00:00Z");
    await setPolicy(
      db,
      "contracts.products",
      { SOLUSDT: { type: "delivery", expiresAt: expiry.toISOString() } },
      "test",
    );
    const user = await newContractUser(db, "10000");
    await recordContractTicks(db, [{ symbol: "SOLUSDT", price: "100", time: clock.getTime() - 100 }]);
    const p = await openContractPosition({ db, now: () => clock }, user, {
      symbol: "SOLUSDT",
      side: "long",
      order_type: "market",
      lots: "10",
      leverage: 10,
    });
    expect(p).toMatchObject({ type: "delivery", expires_at: expiry.toISOString() });
    await recordContractTicks(db, [
      { symbol: "SOLUSDT", price: "104", time: expiry.getTime() - 1000 },
      { symbol: "SOLUSDT", price: "105", time: expiry.getTime() + 400 },
      { symbol: "SOLUSDT", price: "90", time: expiry.getTime() + 60_000 },
    ]);
    // The worker was down at the expiry; it starts an hour later.
    clock = new Date(expiry.getTime() + 3_600_000);
    const events = new QueueEvents(QUEUES.contractDelivery, { connection: redis.duplicate(), prefix });
    await events.waitUntilReady();
    const { worker, queue } = await startContractDeliveryWorker(redis, prefix, deps());
    const again = await queue.add(JOBS.deliverContracts, {});
    await again.waitUntilFinished(events);
    const { position, closes } = await getContractPosition(db, user, p.id);
    expect(position).toMatchObject({ status: "closed", close_reason: "delivery", exit_price: "105" });
    expect(closes).toHaveLength(1);
    // pnl (105 − 100) × 10 = 50; fee 1050 × 0.0005 = 0.525.
    expect(closes[0]).toMatchObject({ pnl: "50", fee: "0.525", payout: "149.475" });
    const n = await pool.query(
      "select count(*)::int as n from journal_entries where kind = 'contract.close.delivery' and reference_id = $1",
      [String(p.id)],
    );
    expect(n.rows[0].n).toBe(1);
    expect((await reconcileLedger(db)).ok).toBe(true);
    await worker.close();
    await queue.close();
    await events.close();
  });

  it("runs the tick retention: a run delivered twice deletes the old unneeded ticks once", async () => {
    const old = await recordContractTicks(db, [
      { symbol: "LINKUSDT", price: "12", time: clock.getTime() - 90 * 86_400_000 },
      { symbol: "LINKUSDT", price: "12.1", time: clock.getTime() - 89 * 86_400_000 },
    ]);
    // The risk engine has read everything recorded.
    await pool.query(
      "insert into contract_engine_cursor (name, tick_id) values ('main', (select max(id) from contract_ticks)) on conflict (name) do update set tick_id = excluded.tick_id",
    );
    const events = new QueueEvents(QUEUES.contractDelivery, { connection: redis.duplicate(), prefix });
    await events.waitUntilReady();
    const { worker, queue } = await startContractDeliveryWorker(redis, prefix, deps());
    const first = await queue.add(JOBS.pruneContractTicks, {});
    const second = await queue.add(JOBS.pruneContractTicks, {});
    const results = [await first.waitUntilFinished(events), await second.waitUntilFinished(events)];
    const ids = old.map((t) => t.id);
    const left = await pool.query("select id from contract_ticks where id = any($1) order by id", [ids]);
    // The older is gone; the newer is LINKUSDT's latest tick, which stays.
    expect(left.rows.map((r) => Number(r.id))).toEqual([ids[1]]);
    // One run at a time (concurrency 1): the first deletes, the second finds nothing more.
    expect(results[0]?.deleted).toBeGreaterThanOrEqual(1);
    expect(results[1]?.deleted).toBe(0);
    await worker.close();
    await queue.close();
    await events.close();
  });
});
