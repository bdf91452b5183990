export interface UntilOptions {
  /**
   * Only bounds a failure: with both CI lanes loading the machine, a wait that takes seconds alone
   * has passed 30 s (the shard-count test's wait for fills).
   */
  timeoutMs?: number;
  intervalMs?: number;
  /** Added to the timeout's message, e.g. the tails of the processes' logs. */
  context?: () => string;
}

/** Polls until the probe gives a truthy value and returns it: a test waits for a state, never a fixed sleep. */
export async function until<T>(
  probe: () => Promise<T | false | null | undefined> | T | false | null | undefined,
  what: string,
  options: UntilOptions | number = {},
): Promise<T> {
  const {
    timeoutMs = 90_000,
    intervalMs = 50,
    context,
  } = typeof options === "number" ? { timeoutMs: options } : options;
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) {
      return value;
    }
    if (Date.now() > end) {
      throw new Error(`timed out after ${timeoutMs} ms: ${what}${context ? `\n${context()}` : ""}`);
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** The last lines each started process wrote, for a timeout's message (`context`). */
export const logTails = (processes: readonly { name: string; lines: readonly string[] }[], count = 15) =>
  processes.map((p) => `--- ${p.name}\n${p.lines.slice(-count).join("\n")}`).join("\n");
