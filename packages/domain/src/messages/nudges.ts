import type { Redis } from "ioredis";
import { afterCommit, type Db, type DbOrTx } from "../db/client.ts";
import { countUnreadMany } from "./unread.ts";
import { publishUserEvents } from "./user-events.ts";

/**
 * Live badges. A message is added inside another module's transaction, so its owner is told only once
 * that transaction has committed (`afterCommit`), never when it rolls back; whichever process wrote it
 * (an API request, a legacy call, a worker job, the matcher) announces each owner's new unread count
 * on their `user` socket channel. Each process that writes messages registers its Redis connection
 * for its database handle once at start (`useMessagePublisher`); without one, badges wait for a reload.
 */
class NudgePublisher {
  private readonly due = new Set<number>();
  private running: Promise<void> | null = null;

  constructor(
    private readonly db: Db,
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  /** Coalesces the owners of one commit (and of commits while a publish runs): one count, one publish. */
  nudge(userIds: Iterable<number>) {
    for (const id of userIds) {
      this.due.add(id);
    }
    this.running ??= Promise.resolve()
      .then(() => this.drain())
      .catch((error) => console.error("message badges:", error instanceof Error ? error.message : error))
      .finally(() => {
        this.running = null;
        if (this.due.size > 0) {
          this.nudge([]);
        }
      });
  }

  private async drain() {
    while (this.due.size > 0) {
      const userIds = [...this.due];
      this.due.clear();
      const unread = await countUnreadMany(this.db, userIds);
      const events = userIds.map((userId) => ({
        userId,
        data: { type: "messages", unread: unread.get(userId) ?? 0 },
      }));
      await publishUserEvents(this.redis, this.prefix, events);
    }
  }

  /** Resolves once every nudge so far has been published (or has failed). */
  async settled() {
    while (this.running) {
      await this.running;
    }
  }
}

const publishers = new WeakMap<Db, NudgePublisher>();

/** Registers the live badge publisher of a database handle; called once by each process at start. */
export function useMessagePublisher(db: Db, redis: Redis, prefix: string): void {
  publishers.set(db, new NudgePublisher(db, redis, prefix));
}

/** Resolves once the badges of everything committed so far on `db` have been published. */
export async function messageBadgesSettled(db: Db): Promise<void> {
  await publishers.get(db)?.settled();
}

/** Notes that these users' unread counts change with what `db` writes; told once it commits. */
export function noteMessagesFor(db: DbOrTx, userIds: Iterable<number>): void {
  const ids = [...userIds];
  if (ids.length > 0) {
    afterCommit(db, (root) => publishers.get(root)?.nudge(ids));
  }
}
