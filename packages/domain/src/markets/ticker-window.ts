import type { Candle, Ticker } from "@northstar/shared/markets";
import { MoneyDecimal } from "@northstar/shared/money";

const DAY_MS = 24 * 3600_000;
const MINUTE_MS = 60_000;

interface Minute {
  time: number;
  open: string;
  high: string;
  low: string;
  /** numeric shadows for choosing the extremes; the strings are what is shown */
  highN: number;
  lowN: number;
  volume: MoneyDecimal;
  quoteVolume: MoneyDecimal;
}

/**
 * Rolling 24-hour statistics of one instrument from its 1-minute candles: the price 24 hours ago,
 * high, low, and base and quote volume. Sums are kept as decimals and updated as minutes enter and
 * leave the window; high and low are found by comparing numeric shadows of the candles' strings
 * (a scan of at most 1,440 numbers), and the chosen candle's own string is what is shown.
 */
export class TickerWindow {
  private readonly minutes: Minute[] = [];
  private head = 0;
  private volume = new MoneyDecimal(0);
  private quoteVolume = new MoneyDecimal(0);
  private current: Minute | null = null;
  last: string;
  lastTime = 0;

  constructor(
    readonly symbol: string,
    initialPrice: string,
  ) {
    this.last = initialPrice;
  }

  /** Adds a closed 1-minute candle (history at start, then each minute as it closes). */
  addMinute(candle: Candle, quoteVolume?: string): void {
    const minute = toMinute(candle, quoteVolume);
    this.minutes.push(minute);
    this.volume = this.volume.plus(minute.volume);
    this.quoteVolume = this.quoteVolume.plus(minute.quoteVolume);
    this.last = candle.close;
    this.lastTime = Math.max(this.lastTime, candle.time + MINUTE_MS - 1);
  }

  /** Applies a trade print or price tick to the forming minute. */
  applyTick(price: string, volume: string, time: number): void {
    const start = Math.floor(time / MINUTE_MS) * MINUTE_MS;
    const p = Number(price);
    if (!this.current || this.current.time !== start) {
      this.current = {
        time: start,
        open: price,
        high: price,
        low: price,
        highN: p,
        lowN: p,
        volume: new MoneyDecimal(0),
        quoteVolume: new MoneyDecimal(0),
      };
    }
    const c = this.current;
    if (p > c.highN) {
      c.high = price;
      c.highN = p;
    }
    if (p < c.lowN) {
      c.low = price;
      c.lowN = p;
    }
    c.volume = c.volume.plus(volume);
    c.quoteVolume = c.quoteVolume.plus(new MoneyDecimal(volume).times(price));
    this.last = price;
    this.lastTime = time;
  }

  /** Moves the forming minute into the window once it has closed (its candle was stored). */
  closeMinute(candle: Candle): void {
    const quote = this.current?.time === candle.time ? this.current.quoteVolume.toFixed() : undefined;
    if (this.current?.time === candle.time) {
      this.current = null;
    }
    this.addMinute(candle, quote);
  }

  ticker(now: number, open: boolean): Ticker {
    const cutoff = now - DAY_MS;
    while (this.head < this.minutes.length && (this.minutes[this.head] as Minute).time < cutoff) {
      const gone = this.minutes[this.head] as Minute;
      this.volume = this.volume.minus(gone.volume);
      this.quoteVolume = this.quoteVolume.minus(gone.quoteVolume);
      this.head++;
    }
    if (this.head > 4096) {
      this.minutes.splice(0, this.head);
      this.head = 0;
    }
    let first: Minute | null = null;
    let high = this.current;
    let low = this.current;
    for (let i = this.head; i < this.minutes.length; i++) {
      const m = this.minutes[i] as Minute;
      first ??= m;
      if (!high || m.highN > high.highN) {
        high = m;
      }
      if (!low || m.lowN < low.lowN) {
        low = m;
      }
    }
    first ??= this.current;
    const openPrice = first?.open ?? this.last;
    const volume = this.volume.plus(this.current?.volume ?? 0);
    const quoteVolume = this.quoteVolume.plus(this.current?.quoteVolume ?? 0);
    const base = new MoneyDecimal(openPrice);
    const change = base.isZero()
      ? "0.00"
      : new MoneyDecimal(this.last).minus(base).div(base).times(100).toFixed(2);
    return {
      s: this.symbol,
      p: this.last,
      o: openPrice,
      h: high?.high ?? this.last,
      l: low?.low ?? this.last,
      v: volume.toFixed(),
      q: quoteVolume.toDecimalPlaces(2).toFixed(),
      c: change,
      t: this.lastTime,
      x: open,
    };
  }
}

function toMinute(candle: Candle, quoteVolume?: string): Minute {
  const volume = new MoneyDecimal(candle.volume);
  return {
    time: candle.time,
    open: candle.open,
    high: candle.high,
    low: candle.low,
    highN: Number(candle.high),
    lowN: Number(candle.low),
    volume,
    // History has no trade-by-trade record; its quote volume is estimated at the close.
    quoteVolume: quoteVolume !== undefined ? new MoneyDecimal(quoteVolume) : volume.times(candle.close),
  };
}
