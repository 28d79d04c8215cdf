// A transaction's replace: the matching rows, computed first, yielded as row objects or record batches and deleted as yielded.
import type { RecordBatch } from 'apache-arrow';
import type { Row } from '../cursor.js';
import { type RowMaker, rowSource } from '../data/rows.js';
import type { PartMatches } from '../read/execute.js';
import type { RowMarker, TxState } from './tx-state.js';
import { keepShape } from '../shapes.js';

/**
 * What a replace asks of its transaction before each row: `check()` throws once it is no longer
 * active. The transaction itself, not a closure made per replace: the iterator's optimised code
 * then calls one method of one class from one replace to the next.
 */
export interface Guard {
  check(): void;
}

/**
 * What `Transaction.replace(filter)` returns: iterate it for row objects, or call `batches()` for
 * Arrow record batches (the caller may transform them and `tx.insert` the result). Either way the
 * matches are computed against the table as the transaction sees it when the iteration starts
 * (each partition's taken as soon as they are found), and each row is deleted as it is yielded: a row not
 * reached (the caller broke out) stays, rows inserted meanwhile are not matched, and rows the
 * transaction deleted meanwhile are skipped.
 * @example
 * for await (const old of tx.replace('depth < 0')) await tx.insert({ ...old, depth: -old.depth });
 * for await (const b of tx.replace('depth < 0').batches()) await tx.insert(transform(b));
 */
export class Replacement implements AsyncIterable<Row> {
  /** @internal */
  constructor(
    private readonly matches: () => Promise<Promise<PartMatches>[]>,
    private readonly state: TxState,
    private readonly tx: Guard,
  ) {}

  [Symbol.asyncIterator](): AsyncIterator<Row> {
    return new RowIterator(this.matches, this.state, this.tx);
  }

  /** The matches as record batches of the table's schema, one or more per partition with matches. */
  async *batches(): AsyncGenerator<RecordBatch> {
    for (const next of await this.matches()) {
      const m = await next;
      if (m.rows.length === 0) continue;
      this.tx.check();
      const marker = this.state.marker(m.part, m.rows);
      // runs of rows the marker could delete (the transaction had not deleted them meanwhile)
      const n = m.rows.length;
      for (let lo = 0; lo < n; ) {
        const hi = marker.markRun(lo);
        if (hi > lo) yield lo === 0 && hi === n ? m.batch! : m.batch!.slice(lo, hi);
        lo = hi + 1; // rows[hi] was deleted already
      }
    }
  }
}

/** Columns are read a slice at a time (bounded memory); each row object is made as it is yielded. */
const SLICE = 4096;

// a plain async iterator: within a partition each step is one resolved promise, cheaper than an
// async generator's machinery; moving to the next partition awaits its matches
class RowIterator implements AsyncIterator<Row> {
  private all: Promise<PartMatches>[] | null = null;
  private part = -1;
  private current: PartMatches | null = null;
  private offset = 0;
  private make: RowMaker | null = null;
  private sources: readonly unknown[] = [];
  private size = 0;
  private k = 0;
  private marker: RowMarker | null = null;

  constructor(
    private readonly matches: () => Promise<Promise<PartMatches>[]>,
    private readonly state: TxState,
    private readonly tx: Guard,
  ) {}

  next(): Promise<IteratorResult<Row>> {
    try {
      const row = this.step();
      return row !== null ? Promise.resolve(row) : this.advance();
    } catch (e) {
      return Promise.reject(e);
    }
  }

  return(): Promise<IteratorResult<Row>> {
    this.all = [];
    this.current = null;
    this.size = 0;
    return Promise.resolve({ value: undefined, done: true });
  }

  // the next row of the current partition (slice by slice), or null when it has no more
  private step(): IteratorResult<Row> | null {
    const m = this.current;
    if (m === null) return null;
    for (;;) {
      while (this.k < this.size) {
        this.tx.check();
        const k = this.k++;
        if (this.marker!.markAt(this.offset + k)) return { value: this.make!(this.sources, k), done: false };
      }
      if (this.offset + this.size >= m.rows.length) return null;
      this.offset += this.size;
      this.slice(m);
    }
  }

  // the next partition with rows (awaiting its matches), or done
  private async advance(): Promise<IteratorResult<Row>> {
    this.all ??= await this.matches();
    for (;;) {
      this.current = null;
      if (++this.part >= this.all.length) return { value: undefined, done: true };
      const m = await this.all[this.part]!;
      if (this.all.length === 0) return { value: undefined, done: true }; // returned meanwhile
      if (m.rows.length === 0) continue;
      this.tx.check();
      this.current = m;
      this.offset = 0;
      this.marker = this.state.marker(m.part, m.rows);
      this.slice(m);
      const row = this.step();
      if (row !== null) return row;
    }
  }

  private slice(m: PartMatches): void {
    const hi = Math.min(m.rows.length, this.offset + SLICE);
    const rows = rowSource(this.offset === 0 && hi === m.rows.length ? m.batch! : m.batch!.slice(this.offset, hi));
    this.make = rows.make;
    this.sources = rows.sources;
    this.size = hi - this.offset;
    this.k = 0;
  }
}

// a replace's iterator keeps its hidden class through full GCs (see keepShape)
keepShape(new RowIterator(() => Promise.resolve([]), null as never, { check: () => undefined }));
