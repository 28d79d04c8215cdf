// A sorted array with binary-search insert, remove and seek: the catalog's (created_time, uuid) orders.

/**
 * Elements kept in `compare` order; duplicates (compare = 0) are not allowed.
 * @example
 * const s = new SortedArray<number>((a, b) => a - b); s.insert(3); s.insert(1); s.items // [1, 3]
 */
export class SortedArray<T> {
  readonly #items: T[] = [];
  readonly #compare: (a: T, b: T) => number;

  constructor(compare: (a: T, b: T) => number) {
    this.#compare = compare;
  }

  get items(): readonly T[] {
    return this.#items;
  }

  /** Replaces the contents with `items` (any order), sorted once. */
  load(items: readonly T[]): void {
    this.#items.length = 0;
    for (const item of [...items].sort(this.#compare)) this.#items.push(item);
  }

  insert(item: T): void {
    this.#items.splice(this.lowerBound(item), 0, item);
  }

  /** Removes the element comparing equal to `item`; false when there is none. */
  remove(item: T): boolean {
    const i = this.lowerBound(item);
    const found = this.#items[i];
    if (found === undefined || this.#compare(found, item) !== 0) return false;
    this.#items.splice(i, 1);
    return true;
  }

  /** Index of the first element not less than `probe` (per `cmp`, defaulting to the array's order). */
  lowerBound<P = T>(probe: P, cmp: (a: T, p: P) => number = this.#compare as unknown as (a: T, p: P) => number): number {
    let lo = 0;
    let hi = this.#items.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cmp(this.#items[mid]!, probe) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
