import type { Db } from "../db/client.ts";
import { getPolicy } from "../policy/index.ts";
import { recordTicks } from "./ticks.ts";

interface FeedTick {
  symbol: string;
  price: string;
  time: number;
}

/**
 * Records the feed's ticks of instruments with options products, in batches every `intervalMs`, so
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
    this.buffer.push({ symbol: tick.symbol, price: tick.price, time: tick.time });
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
