import { IntMap } from "./int-map.ts";

/**
 * Price levels of one side of the book. Each level holds its orders in an intrusive doubly linked list
 * (FIFO = time priority), so unlinking an order is O(1) given its node. Active levels sit in an array
 * sorted by `key` ascending with the best level LAST: taking the best is O(1), removing it is a pop, and
 * a new level costs a binary search plus a short shift (new levels are mostly near the top of the book,
 * i.e. near the end of the array, so little moves). A hash map price → level finds a level in O(1).
 *
 * Nodes and levels are recycled through free lists to keep garbage-collector pauses out of the
 * latency tail. All fields are initialised in constructors so every instance has one hidden class.
 */

export class OrderNode {
  id = 0;
  owner = 0;
  /** Lots left on the book. */
  qty = 0;
  level: PriceLevel | null = null;
  prev: OrderNode | null = null;
  next: OrderNode | null = null;
}

export class PriceLevel {
  price = 0;
  /** price for bids, -price for asks: a higher key is always a better price. */
  key = 0;
  /** Lots resting at this price. */
  total = 0;
  count = 0;
  isBid = false;
  head: OrderNode | null = null;
  tail: OrderNode | null = null;

  append(node: OrderNode): void {
    node.level = this;
    node.prev = this.tail;
    node.next = null;
    if (this.tail === null) {
      this.head = node;
    } else {
      this.tail.next = node;
    }
    this.tail = node;
    this.total += node.qty;
    this.count++;
  }

  /** Removes the node from the queue; the caller has already taken any filled quantity off `total`. */
  unlink(node: OrderNode): void {
    const prev = node.prev;
    const next = node.next;
    if (prev === null) {
      this.head = next;
    } else {
      prev.next = next;
    }
    if (next === null) {
      this.tail = prev;
    } else {
      next.prev = prev;
    }
    this.total -= node.qty;
    this.count--;
    node.prev = null;
    node.next = null;
    node.level = null;
  }
}

/** Largest number of spare nodes or levels kept for reuse; beyond it they are left to the GC. */
const POOL_CAP = 1 << 16;

/** Free lists shared by both sides of a book. */
export class Pools {
  private readonly nodes: OrderNode[] = [];
  private readonly levels: PriceLevel[] = [];

  node(): OrderNode {
    return this.nodes.pop() ?? new OrderNode();
  }

  releaseNode(node: OrderNode): void {
    if (this.nodes.length < POOL_CAP) {
      this.nodes.push(node);
    }
  }

  level(): PriceLevel {
    return this.levels.pop() ?? new PriceLevel();
  }

  releaseLevel(level: PriceLevel): void {
    level.head = null;
    level.tail = null;
    level.total = 0;
    level.count = 0;
    if (this.levels.length < POOL_CAP) {
      this.levels.push(level);
    }
  }
}

export class BookSide {
  readonly isBid: boolean;
  /** Active levels, ascending key, best last. */
  readonly levels: PriceLevel[] = [];
  private readonly byPrice = new IntMap<PriceLevel>(256);
  private readonly pools: Pools;

  constructor(isBid: boolean, pools: Pools) {
    this.isBid = isBid;
    this.pools = pools;
  }

  best(): PriceLevel | undefined {
    return this.levels[this.levels.length - 1];
  }

  /** The level at `price`, created (and placed in order) if absent. */
  level(price: number): PriceLevel {
    const found = this.byPrice.get(price);
    if (found !== undefined) {
      return found;
    }
    const level = this.pools.level();
    level.price = price;
    level.key = this.isBid ? price : -price;
    level.isBid = this.isBid;
    const levels = this.levels;
    // Append, then shift the better levels up by one and drop the new one into the gap.
    let i = levels.length;
    levels.push(level);
    if (i > 0 && (levels[i - 1] as PriceLevel).key > level.key) {
      const at = this.lowerBound(level.key, i);
      while (i > at) {
        levels[i] = levels[i - 1] as PriceLevel;
        i--;
      }
      levels[at] = level;
    }
    this.byPrice.set(price, level);
    return level;
  }

  /** Drops an empty level. */
  remove(level: PriceLevel): void {
    const levels = this.levels;
    const last = levels.length - 1;
    if (levels[last] !== level) {
      // Copy by hand: splice would allocate the array of removed elements.
      for (let i = this.lowerBound(level.key, last); i < last; i++) {
        levels[i] = levels[i + 1] as PriceLevel;
      }
    }
    levels.pop();
    this.byPrice.delete(level.price);
    this.pools.releaseLevel(level);
  }

  /** Index of the first level among levels[0, end) whose key is >= key. */
  private lowerBound(key: number, end: number): number {
    const levels = this.levels;
    let lo = 0;
    let hi = end;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((levels[mid] as PriceLevel).key < key) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }
}
