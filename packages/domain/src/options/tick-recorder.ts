import type { Db } from "../db/client.ts";
import type { ProvenancedTick } from "../markets/index.ts";
import { getPolicy } from "../policy/index.ts";
import { recordTicks } from "./ticks.ts";

type FeedTick = ProvenancedTick;

/**
 * Records the feed's ticks of instruments with options products, with their provenance, in batches every `intervalMs`, so
 * purchases and settlements read prices that really came from the feed. The product list is read
 * from policy at every flush, so a product an operator adds is recorded from then on.
 */
export class OptionTickRecorder {
  private buffer: FeedTick[] = [];
  private timer: ReturnType<typeof setInterval> | null = null;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly log: (line: string) => void = () => {},
    private readonly intervalMs = 200,
  ) {}

  start(): void {
    this.timer ??= setInterval(() => void this.flush(), this.intervalMs);
  }

  onTick(tick: FeedTick): void {
    const { symbol, price, time, source, sourceSymbol, sourceTime, sourceId, receivedAt } = tick;
    this.buffer.push({ symbol, price, time, source, sourceSymbol, sourceTime, sourceId, receivedAt });
  }

  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      const batch = this.buffer.splice(0);
      if (batch.length === 0) {
        return;
      }
      try {
        const products = await getPolicy(this.db, "options.products");
        await recordTicks(
          this.db,
          batch.filter((t) => products[t.symbol]),
        );
      } catch (error) {
        this.log(`option ticks not recorded: ${error instanceof Error ? error.message : error}`);
      }
    });
    return this.flushing;
  }

  async stop(): Promise<void> {
    if (this.timer) {
      clearInterval(this.timer);
    }
    this.timer = null;
    await this.flush();
  }
}
