import type { Db } from "../db/client.ts";
import type { ProvenancedTick } from "../markets/index.ts";
import { listContractProducts } from "./products.ts";
import { recordContractTicks } from "./ticks.ts";

type FeedTick = ProvenancedTick;

/** The product list is read again at most this often, so a product an operator adds is recorded soon. */
const PRODUCTS_REFRESH_MS = 10_000;

/**
 * Records the feed's ticks of instruments with contract products, with their provenance, in batches every `intervalMs`,
 * so orders, triggers and liquidations use prices that really came from the feed. One writer (the
 * market-feed role) records them, so tick ids follow the feed's order.
 */
export class ContractTickRecorder {
  private buffer: FeedTick[] = [];
  private timer: ReturnType<typeof setInterval> | null = null;
  private flushing: Promise<void> = Promise.resolve();
  private symbols: Set<string> | null = null;
  private symbolsAt = 0;

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
        if (!this.symbols || Date.now() - this.symbolsAt > PRODUCTS_REFRESH_MS) {
          const products = await listContractProducts(this.db, new Date(), { withDisabled: true });
          this.symbols = new Set(products.map((p) => p.symbol));
          this.symbolsAt = Date.now();
        }
        const wanted = this.symbols;
        await recordContractTicks(
          this.db,
          batch.filter((t) => wanted.has(t.symbol)),
        );
      } catch (error) {
        this.log(`contract ticks not recorded: ${error instanceof Error ? error.message : error}`);
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
