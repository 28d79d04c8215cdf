// A transaction's private state: its pinned base snapshot, its own inserted rows, its deletions.
import { type Data, RecordBatch, Struct, makeData } from 'apache-arrow';
import type { StoreContext } from '../context.js';
import type { DataContext } from '../data/fail.js';
import { RowStage } from '../data/row-stage.js';
import { checkSpatial } from '../geo/validate.js';
import { scanBatches } from '../read/execute.js';
import { plan } from '../read/plan.js';
import type { Snapshot } from '../read/snapshot.js';
import { type PartRecord, deleteKey } from '../storage/records.js';
import { zoneStats } from '../storage/zonemap.js';
import type { PartDeletes } from '../write/commit.js';
import { Claim } from '../write/part-writer.js';
import { removeParts, sliceColumns, type WrittenPart, writeParts } from '../write/partition.js';
import { type Deleted, emptyBits, isDeleted, markRows, markRun, seedDeleted } from './deletes.js';
import { mergeRows } from './forward.js';
import { first, settledWithin } from './hedge.js';
import { keepShape } from '../shapes.js';

// ids of local parts: the prefix and their index (committed part ids never start with it)
const LOCAL = 'local-';

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
  /** The rows this transaction deleted: chunks of ascending rows, each filled to `n`. */
  readonly mine: { readonly rows: Uint32Array; n: number; readonly encoded?: Uint8Array }[];
}

/**
 * Inserted rows written while the transaction goes on: with a part writer, queued rows go to it in
 * spills of `spillRows` rows or more (see `spillFull`), so that commit waits only for the tail. The
 * rows stay in memory too (reads see them, and a fallback writes them again).
 */
interface Spill {
  readonly batches: readonly RecordBatch[];
  /** The files, or null when the write failed (commit writes the rows again and reports its own error). */
  written: Promise<WrittenPart[] | null>;
  /** True once `written` has settled. */
  done: boolean;
  /** Taken back by commit if the part writer has not started it (`Claim`). */
  readonly claim: Int32Array;
  /** The local part a read made of the rows; once it has deleted rows the files are not used. */
  local?: LocalPart;
}

/** What commit adds: files written already, then the rows still to write. */
export interface Inserted {
  readonly files: WrittenPart[];
  readonly batches: RecordBatch[];
}

/**
 * Deletes a part's matching rows (`rows`, ascending, handed over: kept, never written) as a replace
 * yields them, by their index in `rows`.
 */
export interface RowMarker {
  /** Marks `rows[i]` deleted; false when the transaction had deleted it already. */
  markAt(i: number): boolean;
  /**
   * Marks `rows[from]`, `rows[from + 1]`, ... up to the first row the transaction had deleted
   * already (left as it is) or the end; returns that row's index (`rows.length` at the end).
   */
  markRun(from: number): number;
}

/**
 * A RowMarker over one part's bitmap. A class, not closures made per part: its methods' optimised
 * code serves every marker (closures made afresh start in the interpreter each time, ~4 ms a 100k-row replace).
 */
class Marker implements RowMarker {
  // the chunk of the current run, and the index its next row would have
  private run: { rows: Uint32Array; n: number } | null = null;
  private next = -1;
  private readonly bits: Uint8Array;

  constructor(
    private readonly rows: Int32Array,
    private readonly target: { readonly bits: Uint8Array; count: number },
    /** Where the rows deleted are recorded (an overlay's), or null for a local part. */
    private readonly chunks: { rows: Uint32Array; n: number }[] | null,
  ) {
    this.bits = target.bits;
  }

  markAt(i: number): boolean {
    const row = this.rows[i]!;
    const mask = 1 << (row & 7);
    if ((this.bits[row >> 3]! & mask) !== 0) return false;
    this.bits[row >> 3]! |= mask;
    this.target.count++;
    this.record(i, i + 1);
    return true;
  }

  markRun(from: number): number {
    const i = markRun(this.bits, this.rows, from);
    this.target.count += i - from;
    this.record(from, i);
    return i;
  }

  private record(from: number, to: number): void {
    if (this.chunks === null || to === from) return;
    if (this.run !== null && from === this.next) this.run.n += to - from;
    else this.chunks.push((this.run = { rows: new Uint32Array(this.rows.buffer, this.rows.byteOffset + from * 4, this.rows.length - from), n: to - from }));
    this.next = to;
  }
}

/**
 * The state behind a Transaction. Reads see `view()`: the base snapshot plus the local parts, with
 * the transaction's deletions applied. Nothing here is visible to anyone else until commit.
 */
export class TxState {
  private readonly locals: LocalPart[] = [];
  private pending: RecordBatch[] = [];
  private pendingRows = 0;
  private readonly spills: Spill[] = [];
  // spills not yet settled, and the rows spilled so far
  private inFlight = 0;
  private spilledRows = 0;
  private readonly overlays = new Map<string, Overlay>();
  // made on the first row object (a delete or an array insert never needs one)
  private stage: RowStage | null = null;
  // the shares of the commit's rows `shareTail` gave the scan workers, all of them (see `firstShare`)
  private readonly shares: Spill[] = [];

  constructor(
    private readonly ctx: StoreContext,
    readonly base: Snapshot,
  ) {}

  /** Queues validated rows; they become a local part at the next read or at commit. */
  add(batches: readonly RecordBatch[]): void {
    for (const b of batches) {
      this.pending.push(b);
      this.pendingRows += b.numRows;
    }
    this.spillFull();
  }

  /**
   * Stages one plain row object, converted with the others at the next `takeRows()`; InvalidData
   * (nothing staged) when it does not fit the schema, as an insert of it alone would fail.
   */
  addRow(row: Readonly<Record<string, unknown>>): void {
    this.rowStage().add(row);
  }

  /**
   * The staged row objects as one batch, leaving none staged. Each was checked when staged, so this
   * fails (InvalidData, row = position among them) only on what no row alone shows (see RowStage);
   * the spatial checks run again, as a value's bytes may have changed since.
   */
  takeRows(ctx: DataContext): RecordBatch {
    const batch = this.rowStage().toBatch(ctx);
    checkSpatial(this.base.schema, [batch], ctx);
    return batch;
  }

  private rowStage(): RowStage {
    return (this.stage ??= new RowStage(this.base.schema, { table: this.base.record.name }));
  }

  /** How many row objects are staged. */
  get queuedRows(): number {
    return this.stage?.size ?? 0;
  }

  /** True when the transaction changed nothing. */
  get empty(): boolean {
    return this.pending.length === 0 && this.queuedRows === 0 && this.locals.length === 0 && this.spills.length === 0 && this.overlays.size === 0;
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

  /** Marks rows of a part deleted (`rows` ascending, handed over: kept, and compacted in place to the rows it deleted); returns how many were not deleted already. */
  markDeleted(part: PartRecord, rows: Int32Array, encoded?: Uint8Array): number {
    const local = this.localOf(part);
    const target = local ? local.deleted : this.overlay(part);
    // the rows are kept as given (the caller hands them over), the ones deleted already dropped in place
    const n = markRows(target.bits, rows);
    target.count += n;
    // `encoded` (the rows as a deletion vector) holds only while none of them was deleted already
    const mine = { rows: new Uint32Array(rows.buffer, rows.byteOffset, n), n, ...(encoded && n === rows.length ? { encoded } : {}) };
    if (!local && n > 0) (target as Overlay).mine.push(mine);
    return n;
  }

  /**
   * A marker deleting `rows` of `part` (each counted as it is marked). The rows it deleted are
   * recorded as views of `rows`: each run of consecutive indices marked is one chunk, grown in place.
   */
  marker(part: PartRecord, rows: Int32Array): RowMarker {
    const local = this.localOf(part);
    if (local) return new Marker(rows, local.deleted, null);
    const o = this.overlay(part);
    return new Marker(rows, o, o.mine);
  }

  /** True when a row of a part is deleted in this transaction's view. */
  isDeleted(part: PartRecord, row: number): boolean {
    const local = this.localOf(part);
    const bits = local ? local.deleted.bits : (this.overlays.get(part.id)?.bits ?? this.base.deleted.get(part.id)?.bits);
    return bits !== undefined && isDeleted(bits, row);
  }

  /**
   * The surviving inserted rows for commit: the files of spills whose rows are all still there (in
   * insertion order), then as batches the rest: local parts (without the rows the transaction
   * deleted again), spills whose files cannot serve, and the batches no read has frozen yet.
   * Files of spills that cannot serve are removed.
   */
  async inserted(): Promise<Inserted> {
    const files: WrittenPart[] = [];
    const batches: RecordBatch[] = [];
    const unused: WrittenPart[] = [];
    const schema = this.base.schema;
    const spilled = new Map(this.spills.filter((s) => s.local).map((s) => [s.local!, s]));
    for (const l of this.locals) {
      const spill = spilled.get(l);
      const written = spill ? await spill.written : null;
      if (written && l.deleted.count === 0) {
        files.push(...written);
        continue;
      }
      if (written) unused.push(...written);
      if (l.deleted.count === 0) {
        batches.push(new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length: l.record.rows, nullCount: 0, children: schema.fields.map((f) => l.columns.get(f.name)!) })));
        continue;
      }
      const view = { ...this.view(), parts: [l.record] };
      for await (const b of scanBatches(this.ctx, view, plan(schema, view.record.name, undefined))) batches.push(b);
    }
    for (const s of this.spills) {
      if (s.local) continue;
      const written = await s.written;
      if (written) files.push(...written);
      else batches.push(...s.batches);
    }
    batches.push(...this.takePending());
    await removeParts(this.ctx, unused);
    return { files, batches };
  }

  /** The batches no spill and no read took yet (then none are queued). */
  takePending(): RecordBatch[] {
    const pending = this.pending;
    this.pending = [];
    this.pendingRows = 0;
    return pending;
  }

  /** True while a spill is being written (the part writer thread is busy with it). */
  get spillInFlight(): boolean {
    return this.inFlight > 0;
  }

  /**
   * Settles when the first of the shares `shareTail` gave the scan workers has been written (or
   * failed); at once when it gave none. At commit, when the scan workers took every row, the first
   * of their shares to finish times the others, as this thread's own share does otherwise
   * (`hedgeSpills`). Only those: a spill the part writer had started long before (a large insert's
   * first) finishes first, and timed by it the workers' shares would be written here again.
   */
  firstShare(): Promise<unknown> {
    return this.shares.length === 0 ? Promise.resolve() : Promise.race(this.shares.map((s) => s.written));
  }

  /**
   * At commit, once this thread has nothing else to do: the rows of spills the part writer has not
   * finished are written here (the low-priority thread may be starved by other work, or busy with a
   * merge). A spill it has not started is taken back; one it is writing is written here too if it
   * has not finished `graceMs` later (a thread that is writing, not starved, finishes about when this
   * one does: writing its rows again would only burn a core and the disk), whichever write ends
   * first serves and the other's files are removed.
   */
  hedgeSpills(graceMs = 0): void {
    // spills taken back are written at once; those the thread is writing, if still unfinished once
    // these are done and the grace has passed, are written here too
    const mine: Promise<unknown>[] = [];
    const racing: Spill[] = [];
    // a spill whose rows were deleted again is not committed as written
    for (const s of this.spills.filter((s) => !s.done && !(s.local && s.local.deleted.count > 0))) {
      if (!Claim.cancel(s.claim)) {
        racing.push(s);
        continue;
      }
      const here = this.writeHere(s);
      mine.push(here);
      this.settle(s, here, here);
    }
    const after = Promise.allSettled(mine);
    for (const s of racing) {
      const writer = s.written; // (settle replaces it with the race)
      const here = after.then(() => settledWithin(writer, graceMs)).then(() => (s.done ? null : this.writeHere(s)));
      this.settle(s, here, first(s.written, here));
    }
  }

  /**
   * At commit, before the tail is written: the spills at the end of the queue that the part writer
   * has not started (and no read made a local part of) are taken back (`Claim`), their rows queued
   * again ahead of the others, so this thread writes them with the tail as one file (one fsync).
   */
  reclaimSpills(): void {
    let keep = this.spills.length;
    while (keep > 0) {
      const s = this.spills[keep - 1]!;
      if (s.done || s.local || !Claim.cancel(s.claim)) break;
      keep--;
    }
    const back = this.spills.splice(keep);
    if (back.length === 0) return;
    const batches = back.flatMap((s) => s.batches);
    this.pending = [...batches, ...this.pending];
    this.pendingRows += rowsOf(batches);
  }

  // a spill's rows written on this thread: the files, or null when the write failed
  private writeHere(s: Spill): Promise<WrittenPart[] | null> {
    return writeParts(this.ctx, this.base.record.id, this.base.schema, s.batches, false).then(
      (parts) => parts,
      () => null,
    );
  }

  // `won` serves the spill; the files of the other write go once both have ended (store close waits for this)
  private settle(s: Spill, here: Promise<WrittenPart[] | null>, won: Promise<WrittenPart[] | null>): void {
    const writer = s.written;
    s.written = won;
    this.ctx.background('write a spill on the committing thread too', async () => {
      const [a, b, w] = await Promise.all([writer, here, won]);
      for (const files of [a, b]) if (files !== null && files !== w) await removeParts(this.ctx, files);
    });
  }

  /** Removes the files written for the transaction (after rollback or a failed commit), in the background. */
  discard(): void {
    if (this.spills.length === 0) return;
    const spills = this.spills.splice(0);
    this.ctx.background('discard transaction files', async () => {
      for (const s of spills) await removeParts(this.ctx, (await s.written) ?? []);
    });
  }

  /** The rows deleted from committed partitions, sorted per partition. */
  deletes(): PartDeletes[] {
    return [...this.overlays].flatMap(([part, o]) => {
      const mine = o.mine.filter((m) => m.n > 0);
      // one delete's rows, encoded where they were found: commit uses that encoding
      if (mine.length === 1 && mine[0]!.encoded && mine[0]!.n === mine[0]!.rows.length) return [{ part, rows: mine[0]!.rows, encoded: mine[0]!.encoded }];
      return mine.length > 0 ? [{ part, rows: mergeRows(mine.map((m) => m.rows.subarray(0, m.n))) }] : [];
    });
  }

  /**
   * After the commit that made `version`: each partition's bitmap (what the snapshot had deleted
   * plus the transaction's rows) is the union readers of `version` need; the cache takes it as is
   * when nothing else changed (see `seedDeleted`). Nothing writes the bitmaps after commit.
   */
  seedUnions(version: number): void {
    for (const [part, o] of this.overlays) {
      const rows = o.mine.reduce((n, m) => n + m.n, 0);
      if (rows > 0) seedDeleted(this.ctx, deleteKey(this.base.record.id, part, version), { base: this.base.deleted.get(part), bits: o.bits, count: o.count, rows });
    }
  }

  private localOf(part: PartRecord): LocalPart | undefined {
    return part.id.startsWith(LOCAL) ? this.locals[Number(part.id.slice(LOCAL.length))] : undefined;
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

  /**
   * At commit, with a part writer: the queued rows are shared between the part writer and the
   * committing thread, so that each has about half of the rows still to write, counting the rows of
   * the spills the part writer has not finished (a spill it is writing stays its share). The part
   * writer's share goes to it as a spill (so `hedgeSpills` takes it back if the thread has not
   * started it when this thread is done); the rest is returned (none is left queued), for this
   * thread to write. Without a part writer, while it merges (compaction), with fewer than `minRows`
   * rows queued, or when its share would be under half of `minRows`: null, the rows stay queued.
   * With `helperRows` rows queued or more, and scan workers (`PartWriter.helper`), they go to the
   * scan workers instead, whatever the part writer is doing (they run at normal priority and are
   * idle while their own transaction commits, where the part writer is low-priority and merges
   * often): in even spills of at least half of `helperRows` rows, one per worker at most, and all
   * of them (an empty array is returned) when there are two workers or more; with one, half, and
   * this thread writes the other half.
   */
  shareTail(minRows: number, helperRows = Infinity): RecordBatch[] | null {
    const writer = this.ctx.partWriter;
    if (!writer || this.pendingRows < minRows) return null;
    if (writer.helper && this.pendingRows >= helperRows) {
      const threads = Math.min(writer.helperThreads, Math.floor(this.pendingRows / (helperRows >> 1)));
      if (threads < 2) {
        const give = this.pendingRows >> 1;
        const [first, rest] = cut(this.takePending(), give);
        this.spill(first, true);
        return rest;
      }
      let rest = this.takePending();
      let left = rowsOf(rest);
      for (let k = threads; k > 0; k--) {
        const [share, after] = cut(rest, Math.ceil(left / k));
        this.shares.push(this.spill(share, true));
        left -= rowsOf(share);
        rest = after;
      }
      return [];
    }
    // a merge holds the thread: a share sent to it now would only be taken back (`hedgeSpills`)
    if (writer.busyMerging) return null;
    const busy = this.spills.reduce((n, s) => (s.done ? n : n + rowsOf(s.batches)), 0);
    const give = tailShare(this.pendingRows, busy);
    if (give < minRows >> 1) return null;
    const [first, rest] = cut(this.takePending(), give);
    this.spill(first);
    return rest;
  }

  // with a part writer, queued rows go to it in spills of at least `spillRows` rows: each spill a
  // quarter of the rows spilled before it or more (a large transaction makes few files), several
  // queued at once, so that commit can take back the ones the thread has not started (`hedgeSpills`)
  private spillFull(): void {
    if (!this.ctx.partWriter) return;
    for (;;) {
      const size = Math.max(this.ctx.options.spillRows, this.spilledRows >> 2);
      if (this.pendingRows < size) return;
      const [first, rest] = cut(this.pending, size);
      this.pending = rest;
      this.pendingRows -= size;
      this.spill(first);
    }
  }

  // `batches` start their way to a file (see Spill), on the part writer or, with `helper`, a scan
  // worker; a failed write is retried at commit
  private spill(batches: readonly RecordBatch[], helper = false): Spill {
    this.inFlight++;
    this.spilledRows += rowsOf(batches);
    const claim = Claim.make();
    const written = writeParts(this.ctx, this.base.record.id, this.base.schema, batches, true, claim, helper).then(
      (parts) => parts,
      () => null,
    );
    const spill: Spill = { batches, written, done: false, claim };
    spill.written = written.finally(() => {
      spill.done = true;
      this.inFlight--;
    });
    this.spills.push(spill);
    return spill;
  }

  // spilled rows not yet read, then the pending batches, become local parts with zone maps, so
  // reads prune them like any other part
  private freeze(): void {
    for (const s of this.spills) if (!s.local) s.local = this.localPart(s.batches);
    if (this.pending.length > 0) this.localPart(this.takePending());
  }

  private localPart(batches: readonly RecordBatch[]): LocalPart {
    const schema = this.base.schema;
    const rows = rowsOf(batches);
    const data = sliceColumns(schema, batches, 0, rows);
    const id = `${LOCAL}${this.locals.length}`;
    const zones = Object.fromEntries(schema.fields.map((f, i) => [f.name, zoneStats(data[i]!)]));
    const seq = Number.MAX_SAFE_INTEGER - 1_000_000 + this.locals.length;
    const record: PartRecord = { id, table: this.base.record.id, seq, rows, bytes: 0, file: '', segments: [], zones, added: this.base.record.version };
    const columns = new Map(schema.fields.map((f, i) => [f.name, data[i]!]));
    const local = { record, columns, deleted: { bits: emptyBits(rows), count: 0 } };
    this.locals.push(local);
    return local;
  }
}

/**
 * The rows of `pending` the part writer gets at commit when it still has `busy` rows of unfinished
 * spills: each of the two threads then has about half of what is left to write.
 */
export const tailShare = (pending: number, busy: number): number => Math.max(0, ((pending + busy) >> 1) - busy);

const rowsOf = (batches: readonly RecordBatch[]): number => batches.reduce((n, b) => n + b.numRows, 0);

/** `batches` cut after `rows` rows (a batch across the cut is sliced, no copy): [before, after]. */
export function cut(batches: readonly RecordBatch[], rows: number): [RecordBatch[], RecordBatch[]] {
  const before: RecordBatch[] = [];
  const after: RecordBatch[] = [];
  let at = 0;
  for (const b of batches) {
    if (at + b.numRows <= rows) before.push(b);
    else if (at >= rows) after.push(b);
    else {
      before.push(b.slice(0, rows - at));
      after.push(b.slice(rows - at));
    }
    at += b.numRows;
  }
  return [before, after];
}

// the hidden classes of a transaction's state and of a replace's markers outlive full GCs (see keepShape)
keepShape(new Marker(new Int32Array(0), { bits: new Uint8Array(0), count: 0 }, []));
keepShape(new TxState(null as never, null as never));
