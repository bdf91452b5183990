import { type Candle, type CandlePeriod, periodStart } from "@northstar/shared/markets";
import { MoneyDecimal } from "@northstar/shared/money";

/**
 * The forming candle of every period for one instrument, updated by each tick so charts move live.
 * Each starts from the stored candle of its bucket (so today's candle keeps its morning), and the
 * stored candles are recomputed from 1-minute candles as minutes close, so both agree.
 */
export class LiveCandles {
  private readonly candles = new Map<CandlePeriod, Candle>();

  constructor(private readonly periods: readonly CandlePeriod[]) {}

  /**
   * Rebuilds every period's forming candle from storage: the stored candle of the current bucket
   * (which holds every closed minute) plus the minute still forming. Called at start and after each
   * minute is stored, so the live candles can never drift from the stored ones.
   */
  rebase(stored: Map<CandlePeriod, Candle> | undefined, forming: Candle | null, now: number): void {
    this.candles.clear();
    for (const period of this.periods) {
      const candle = stored?.get(period);
      if (candle && candle.time === periodStart(period, now)) {
        this.candles.set(period, { ...candle });
      }
    }
    if (forming) {
      // The forming minute as three ticks: its high, its low, then its close with its whole volume.
      this.apply(forming.open, "0", forming.time);
      this.apply(forming.high, "0", forming.time);
      this.apply(forming.low, "0", forming.time);
      this.apply(forming.close, forming.volume, forming.time);
    }
  }

  /** Applies a tick to every period's forming candle. */
  apply(price: string, volume: string, time: number): void {
    for (const period of this.periods) {
      const start = periodStart(period, time);
      const current = this.candles.get(period);
      if (!current || current.time !== start) {
        this.candles.set(period, { time: start, open: price, high: price, low: price, close: price, volume });
        continue;
      }
      const p = new MoneyDecimal(price);
      if (p.gt(current.high)) {
        current.high = price;
      }
      if (p.lt(current.low)) {
        current.low = price;
      }
      current.close = price;
      current.volume = new MoneyDecimal(current.volume).plus(volume).toFixed();
    }
  }

  get(period: CandlePeriod): Candle | undefined {
    return this.candles.get(period);
  }
}
