import type { Queue, Worker } from "bullmq";

/** One repeating job of a queue: BullMQ keeps its scheduler in Redis. */
export interface Schedule {
  id: string;
  pattern: string;
  job: string;
}

/** How often a worker checks that its queue's schedulers are still in Redis. */
export const SCHEDULE_CHECK_MS = 30_000;

const OPTS = { removeOnComplete: 100, removeOnFail: 100 };

/**
 * Registers a queue's schedulers and its catch-up run, and keeps them registered: BullMQ keeps
 * schedulers in Redis only, so a Redis that restarts empty would otherwise stop the daily jobs (yield,
 * overnight interest, late fees, reconciliation) until some worker restarted. Every check finds a
 * missing scheduler, registers them again and adds the catch-up run, which works from PostgreSQL's
 * truth and is idempotent per business key, so whatever fell due meanwhile happens once.
 */
export async function keepSchedules(
  queue: Queue,
  worker: Worker,
  schedules: Schedule[],
  catchUpJob: string,
  log: (line: string) => void = () => {},
  checkEveryMs = SCHEDULE_CHECK_MS,
): Promise<{ check(): Promise<boolean> }> {
  const register = async () => {
    for (const s of schedules) {
      await queue.upsertJobScheduler(
        s.id,
        { pattern: s.pattern, tz: "UTC" },
        { name: s.job, data: {}, opts: OPTS },
      );
    }
    await queue.add(catchUpJob, {}, OPTS);
  };
  await register();
  let checking: Promise<boolean> | null = null;
  /** Registers again when a scheduler is gone; true when it had to. Redis unreachable: false, next time. */
  const check = () => {
    checking ??= (async () => {
      try {
        const present = await Promise.all(schedules.map((s) => queue.getJobScheduler(s.id)));
        if (present.every(Boolean)) {
          return false;
        }
        log(`${queue.name}: schedulers missing from Redis, registered again with a catch-up run`);
        await register();
        return true;
      } catch {
        return false;
      } finally {
        checking = null;
      }
    })();
    return checking;
  };
  const timer = setInterval(() => void check(), checkEveryMs);
  timer.unref();
  worker.on("closing", () => clearInterval(timer));
  return { check };
}
