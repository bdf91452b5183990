import { randomBytes } from "node:crypto";
import { createDb, type Db } from "@northstar/domain/db";
import { seedDatabase } from "@northstar/domain/seed";
import { Redis } from "ioredis";
import { afterAll, beforeAll } from "vitest";
import { createTestDatabase, testRedisUrl } from "../../../../packages/domain/src/test-support/index.ts";

/**
 * What a queue's integration test stands on: a fresh seeded PostgreSQL database, a Redis connection
 * BullMQ can use, and a key prefix of the test's own. Its hooks open them before the file's tests and,
 * after the file's own afterAll (vitest runs after-hooks last-registered first, so the test's queues
 * and workers close first), remove the prefix's keys and drop the database.
 */
export interface WorkerTestBed {
  redis: Redis;
  prefix: string;
  /** Set once the file's tests start. */
  db: Db;
  pool: ReturnType<typeof createDb>["pool"];
  databaseUrl: string;
}

export function useWorkerTestBed(name: string): WorkerTestBed {
  const bed = {
    redis: new Redis(testRedisUrl(), { maxRetriesPerRequest: null }),
    prefix: `test:${name}:${randomBytes(3).toString("hex")}`,
  } as WorkerTestBed;
  let close: () => Promise<void> = async () => {};
  beforeAll(async () => {
    const database = await createTestDatabase();
    const conn = createDb(database.url, { max: 10 });
    // A test that kills a process holding connections must not crash on the pool's error event.
    conn.pool.on("error", () => {});
    await seedDatabase(conn.db);
    Object.assign(bed, { db: conn.db, pool: conn.pool, databaseUrl: database.url });
    close = async () => {
      await conn.close();
      await database.drop();
    };
  });
  afterAll(async () => {
    const keys = await bed.redis.keys(`${bed.prefix}*`);
    if (keys.length) {
      await bed.redis.del(...keys);
    }
    bed.redis.disconnect();
    await close();
  });
  return bed;
}
