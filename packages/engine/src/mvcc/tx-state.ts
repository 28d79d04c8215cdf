// A transaction's private state: its pinned base snapshot, its own inserted rows, its deletions.
import type { Data, RecordBatch } from 'apache-arrow';
import type { StoreContext } from '../context.js';
import { scanBatches } from '../read/execute.js';
import { plan } from '../read/plan.js';
import type { Snapshot } from '../read/snapshot.js';
import type { PartRecord } from '../storage/records.js';
import { zoneStats } from '../storage/zonemap.js';
import type { PartDeletes } from '../write/commit.js';
import { sliceColumns } from '../write/partition.js';
import { type Deleted, emptyBits, isDeleted, setDeleted } from './deletes.js';

/** Rows inserted by the transaction, held in memory until commit; scanned like a partition. */
interface LocalPart {
  readonly record: PartRecord;
  readonly columns: ReadonlyMap<string, Data>;
  readonly deleted: { bits: Uint8Array; count: number };
}

/** Deletions of the transaction in a committed partition, on top of what its snapshot already deleted. */
interface Overlay {
  readonly bits: Uint8Array;
  count: number;
  readonly mine: number[];
}

/**
 * The state behind a Transaction. Reads see `view()`: the base snapshot plus the local parts, with
 * the transaction's deletions applied. Nothing here is visible to anyone else until commit.
 */
export class TxState {
  private readonly locals: LocalPart[] = [];
  private pending: RecordBatch[] = [];
  private readonly overlays = new Map<string, Overlay>();

  constructor(
    private readonly ctx: StoreContext,
    readonly base: Snapshot,
  ) {}

  /** Queues validated rows; they become a local part at the next read or at commit. */
  add(batches: readonly RecordBatch[]): void {
    this.pending.push(...batches);
  }

  /** True when the transaction changed nothing. */
  get empty(): boolean {
    return this.pending.length === 0 && this.locals.length === 0 && this.overlays.size === 0;
  }

  /** The snapshot the transaction's reads see (not pinned on its own: the base pin covers it). */
  view(): Snapshot {
    this.freeze();
    const deleted = new Map<string, Deleted>(this.base.deleted);
    for (const [id, o] of this.overlays) deleted.set(id, { bits: o.bits, count: o.count });
    for (const l of this.locals) if (l.deleted.count > 0) deleted.set(l.record.id, { bits: l.deleted.bits, count: l.deleted.count });
    return {
      record: this.base.record,
      schema: this.base.schema,
      parts: [...this.base.parts, ...this.locals.map((l) => l.record)],
      deleted,
      local: new Map(this.locals.map((l) => [l.record.id, l.columns])),
      release: () => undefined,
    };
  }

  /** Marks rows of a part deleted; returns how many were not deleted already. */
  markDeleted(part: PartRecord, rows: ArrayLike<number>): number {
    const local = this.locals.find((l) => l.record.id === part.id);
    const target = local ? local.deleted : this.overlay(part);
    let n = 0;
    for (let k = 0; k < rows.length; k++) {
      const row = rows[k]!;
      if (isDeleted(target.bits, row)) continue;
      setDeleted(target.bits, row);
      target.count++;
      if (!local) (target as Overlay).mine.push(row);
      n++;
    }
    return n;
  }

  /** True when a row of a part is deleted in this transaction's view. */
  isDeleted(part: PartRecord, row: number): boolean {
    const local = this.locals.find((l) => l.record.id === part.id);
    const bits = local ? local.deleted.bits : (this.overlays.get(part.id)?.bits ?? this.base.deleted.get(part.id)?.bits);
    return bits !== undefined && isDeleted(bits, row);
  }

  /** The surviving inserted rows, as batches in insertion order. */
  async *inserted(): AsyncGenerator<RecordBatch> {
    const view = this.view();
    const locals = new Set(this.locals.map((l) => l.record.id));
    yield* scanBatches(this.ctx, { ...view, parts: view.parts.filter((p) => locals.has(p.id)) }, plan(view.schema, view.record.name, undefined));
  }

  /** The rows deleted from committed partitions, sorted per partition. */
  deletes(): PartDeletes[] {
    return [...this.overlays].map(([part, o]) => ({ part, rows: Uint32Array.from(o.mine).sort() }));
  }

  private overlay(part: PartRecord): Overlay {
    let o = this.overlays.get(part.id);
    if (!o) {
      const bits = emptyBits(part.rows);
      const base = this.base.deleted.get(part.id);
      if (base) bits.set(base.bits.subarray(0, bits.length));
      o = { bits, count: base?.count ?? 0, mine: [] };
      this.overlays.set(part.id, o);
    }
    return o;
  }

  // pending batches become one local part, with zone maps so reads prune it like any other
  private freeze(): void {
    if (this.pending.length === 0) return;
    const schema = this.base.schema;
    const rows = this.pending.reduce((n, b) => n + b.numRows, 0);
    const data = sliceColumns(schema, this.pending, 0, rows);
    this.pending = [];
    const id = `local-${this.locals.length}`;
    const zones = Object.fromEntries(schema.fields.map((f, i) => [f.name, zoneStats(data[i]!)]));
    const seq = Number.MAX_SAFE_INTEGER - 1_000_000 + this.locals.length;
    const record: PartRecord = { id, table: this.base.record.id, seq, rows, bytes: 0, file: '', segments: [], zones, added: this.base.record.version };
    const columns = new Map(schema.fields.map((f, i) => [f.name, data[i]!]));
    this.locals.push({ record, columns, deleted: { bits: emptyBits(rows), count: 0 } });
  }
}
