/**
 * A hash map from safe integers to objects: open addressing with linear probing over a Float64Array of
 * keys, and backward-shift deletion, so there are no tombstones and nothing is allocated except when
 * the table grows. A built-in Map rebuilds its table as deletions pile up, and that garbage lands in
 * the latency tail of a book that adds and removes orders all day.
 */
export class IntMap<V extends object> {
  private keys: Float64Array;
  /** undefined marks a free slot. */
  private values: (V | undefined)[];
  private mask: number;
  private count = 0;

  constructor(initialCapacity = 1024) {
    let capacity = 16;
    while (capacity < initialCapacity * 2) {
      capacity *= 2;
    }
    this.keys = new Float64Array(capacity);
    this.values = new Array<V | undefined>(capacity).fill(undefined);
    this.mask = capacity - 1;
  }

  get size(): number {
    return this.count;
  }

  get(key: number): V | undefined {
    const keys = this.keys;
    const values = this.values;
    const mask = this.mask;
    let i = slotOf(key, mask);
    for (;;) {
      const value = values[i];
      if (value === undefined || keys[i] === key) {
        return value;
      }
      i = (i + 1) & mask;
    }
  }

  has(key: number): boolean {
    return this.get(key) !== undefined;
  }

  /** Inserts or replaces. */
  set(key: number, value: V): void {
    const keys = this.keys;
    const values = this.values;
    const mask = this.mask;
    let i = slotOf(key, mask);
    for (;;) {
      if (values[i] === undefined) {
        break;
      }
      if (keys[i] === key) {
        values[i] = value;
        return;
      }
      i = (i + 1) & mask;
    }
    keys[i] = key;
    values[i] = value;
    // Grow at half full: probe sequences stay short.
    if (++this.count * 2 > mask) {
      this.grow();
    }
  }

  delete(key: number): boolean {
    const keys = this.keys;
    const values = this.values;
    const mask = this.mask;
    let i = slotOf(key, mask);
    for (;;) {
      if (values[i] === undefined) {
        return false;
      }
      if (keys[i] === key) {
        break;
      }
      i = (i + 1) & mask;
    }
    // Backward shift: pull later entries of the probe run into the hole while their home slot allows.
    let hole = i;
    let j = (i + 1) & mask;
    for (;;) {
      const value = values[j];
      if (value === undefined) {
        break;
      }
      const k = keys[j] as number;
      const home = slotOf(k, mask);
      // Movable when its home is not cyclically in (hole, j].
      if (hole <= j ? home <= hole || home > j : home <= hole && home > j) {
        keys[hole] = k;
        values[hole] = value;
        hole = j;
      }
      j = (j + 1) & mask;
    }
    values[hole] = undefined;
    this.count--;
    return true;
  }

  /** Calls fn for every entry, in no particular order. */
  forEach(fn: (value: V, key: number) => void): void {
    for (let i = 0; i <= this.mask; i++) {
      const value = this.values[i];
      if (value !== undefined) {
        fn(value, this.keys[i] as number);
      }
    }
  }

  private grow(): void {
    const oldKeys = this.keys;
    const oldValues = this.values;
    const capacity = (this.mask + 1) * 2;
    this.keys = new Float64Array(capacity);
    this.values = new Array<V | undefined>(capacity).fill(undefined);
    this.mask = capacity - 1;
    this.count = 0;
    for (let i = 0; i < oldValues.length; i++) {
      const value = oldValues[i];
      if (value !== undefined) {
        this.set(oldKeys[i] as number, value);
      }
    }
  }
}

/**
 * Mixes both 32-bit halves of a safe integer, then a murmur3 finaliser: ids that share low bits (e.g. a
 * shard number) must not pile into one probe run.
 */
function slotOf(key: number, mask: number): number {
  let h = (key | 0) ^ Math.imul((key / 4294967296) | 0, 0x27d4eb2d);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) & mask;
}
