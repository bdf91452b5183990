/**
 * The risk engine's in-memory index: per instrument, the trigger prices of every live position, so a
 * tick touches only the positions it crosses. Two lists per instrument, each kept sorted so crossed
 * entries sit at its end and are popped: `below` fires when the price falls to or under a key (a
 * long's liquidation and stop-loss, a short's take-profit, a long limit order), `above` when it rises
 * to or over one. Keys are JS numbers only for finding candidates; each candidate is decided again
 * with exact decimals against the database row. A position's entries carry its generation, so
 * re-indexing a position leaves its old entries to be dropped when reached.
 */
interface Entry {
  id: number;
  key: number;
  gen: number;
}

interface Lists {
  below: Entry[];
  above: Entry[];
}

export interface TriggerKeys {
  below: number[];
  above: number[];
}

/** Inserts keeping `list` sorted by `order` (binary search). */
function insertSorted(list: Entry[], entry: Entry, before: (a: number, b: number) => boolean): void {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (before((list[mid] as Entry).key, entry.key)) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  list.splice(lo, 0, entry);
}

export class RiskIndex {
  private readonly bySymbol = new Map<string, Lists>();
  private readonly gens = new Map<number, number>();
  private readonly symbols = new Map<number, string>();
  private readonly counts = new Map<string, number>();

  /** How many positions are indexed. */
  get size(): number {
    return this.gens.size;
  }

  /** Positions indexed on an instrument (what one tick of it is evaluated against). */
  countOn(symbol: string): number {
    return this.counts.get(symbol) ?? 0;
  }

  /** (Re)indexes a position with its trigger keys; its previous keys stop counting. */
  upsert(id: number, symbol: string, keys: TriggerKeys): void {
    const gen = (this.gens.get(id) ?? 0) + 1;
    this.gens.set(id, gen);
    const before = this.symbols.get(id);
    if (before !== symbol) {
      if (before !== undefined) {
        this.counts.set(before, (this.counts.get(before) ?? 1) - 1);
      }
      this.counts.set(symbol, (this.counts.get(symbol) ?? 0) + 1);
      this.symbols.set(id, symbol);
    }
    let lists = this.bySymbol.get(symbol);
    if (!lists) {
      lists = { below: [], above: [] };
      this.bySymbol.set(symbol, lists);
    }
    // below: ascending, so the highest keys (crossed first by a falling price) are at the end.
    for (const key of keys.below) {
      insertSorted(lists.below, { id, key, gen }, (a, b) => a <= b);
    }
    // above: descending, so the lowest keys (crossed first by a rising price) are at the end.
    for (const key of keys.above) {
      insertSorted(lists.above, { id, key, gen }, (a, b) => a >= b);
    }
  }

  remove(id: number): void {
    const symbol = this.symbols.get(id);
    if (symbol !== undefined) {
      this.counts.set(symbol, (this.counts.get(symbol) ?? 1) - 1);
    }
    this.gens.delete(id);
    this.symbols.delete(id);
  }

  has(id: number): boolean {
    return this.gens.has(id);
  }

  /**
   * The positions a tick at `price` crosses, each once, popped from the index (the caller re-indexes
   * those that stay live). Stale entries met on the way are dropped.
   */
  crossed(symbol: string, price: number): number[] {
    const lists = this.bySymbol.get(symbol);
    if (!lists) {
      return [];
    }
    const hit = new Set<number>();
    const take = (list: Entry[], isCrossed: (key: number) => boolean) => {
      for (let last = list.at(-1); last && isCrossed(last.key); last = list.at(-1)) {
        list.pop();
        if (this.gens.get(last.id) === last.gen) {
          hit.add(last.id);
        }
      }
    };
    take(lists.below, (key) => price <= key);
    take(lists.above, (key) => price >= key);
    // A popped position's other entries are stale now: it is re-indexed or removed by the caller.
    for (const id of hit) {
      this.gens.set(id, (this.gens.get(id) ?? 0) + 1);
    }
    return [...hit];
  }
}
