// Reader pins of this process: which table versions a cursor, transaction or compaction still reads.

/** Counts pinned versions per table id. */
export class Snapshots {
  private readonly pins = new Map<string, Map<number, number>>();

  /** Pins `version` of `table`; call the returned function exactly once when done reading. */
  pin(table: string, version: number): () => void {
    const byVersion = this.pins.get(table) ?? new Map<number, number>();
    this.pins.set(table, byVersion);
    byVersion.set(version, (byVersion.get(version) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (byVersion.get(version) ?? 1) - 1;
      if (left > 0) byVersion.set(version, left);
      else byVersion.delete(version);
      if (byVersion.size === 0 && this.pins.get(table) === byVersion) this.pins.delete(table);
    };
  }

  /** The lowest version of `table` pinned in this process, Infinity when none. */
  minPinned(table: string): number {
    const byVersion = this.pins.get(table);
    if (!byVersion) return Number.POSITIVE_INFINITY;
    let min = Number.POSITIVE_INFINITY;
    for (const v of byVersion.keys()) if (v < min) min = v;
    return min;
  }

  get pinnedCount(): number {
    let n = 0;
    for (const m of this.pins.values()) for (const c of m.values()) n += c;
    return n;
  }
}
