// How full a list page is: at most `limit` items and about `maxBytes` of their JSON (catalog, raw files, STAC search).

/** About the most bytes of JSON one list page holds (~64 MiB): a page of huge items still fits in one answer. */
export const PAGE_BYTES = 64 * 1024 * 1024;

/**
 * Counts the items of a page as they are taken. The first item always fits, however large, so
 * paging always advances; after it, an item fits while the page stays within both bounds.
 * @example
 * const budget = new PageBudget(limit);
 * for (const r of matches) { if (!budget.take(sizeOf(r))) return { results, next: keyOf(last) }; results.push(r); }
 */
export class PageBudget {
  private items = 0;
  private bytes = 0;

  constructor(
    readonly limit: number,
    readonly maxBytes = PAGE_BYTES,
  ) {}

  /** Counts an item of `size` bytes and returns true when it fits; false (counting nothing) when the page is full. */
  take(size: number): boolean {
    if (this.items === this.limit || (this.items > 0 && this.bytes + size > this.maxBytes)) return false;
    this.items++;
    this.bytes += size;
    return true;
  }
}
