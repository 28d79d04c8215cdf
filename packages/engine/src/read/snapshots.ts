// Reader pins and deferred file removal: a partition file outlives every reader that can still see it.
import type { PartRecord } from '../storage/records.js';

interface Retired {
  readonly table: string;
  /** Readers pinned at a version below this may still read the parts. */
  readonly version: number;
  readonly parts: readonly PartRecord[];
}

/** Tracks pinned snapshots per table and the parts waiting for their last reader. */
export class Snapshots {
  private readonly pins = new Map<string, Map<number, number>>();
  private retired: Retired[] = [];

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
      if (byVersion.size === 0) this.pins.delete(table);
    };
  }

  /** Records that `parts` stopped being visible at `version` (Infinity when the table was dropped). */
  retire(table: string, version: number, parts: readonly PartRecord[]): void {
    if (parts.length > 0) this.retired.push({ table, version, parts });
  }

  /** Removes and returns the retired parts that no pinned reader can see any more. */
  collectable(): PartRecord[] {
    const out: PartRecord[] = [];
    this.retired = this.retired.filter((r) => {
      const pinned = this.pins.get(r.table);
      const seen = pinned !== undefined && [...pinned.keys()].some((v) => v < r.version);
      if (!seen) out.push(...r.parts);
      return seen;
    });
    return out;
  }

  get pinnedCount(): number {
    let n = 0;
    for (const m of this.pins.values()) for (const c of m.values()) n += c;
    return n;
  }
}
