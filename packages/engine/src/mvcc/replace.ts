// A transaction's replace: the matching rows, computed first, yielded as row objects or record batches and deleted as yielded.
import type { RecordBatch } from 'apache-arrow';
import type { Row } from '../cursor.js';
import { rowFactory } from '../data/rows.js';
import type { PartMatches } from '../read/execute.js';
import type { RowMarker, TxState } from './tx-state.js';

/**
 * What `Transaction.replace(filter)` returns: iterate it for row objects, or call `batches()` for
 * Arrow record batches (the caller may transform them and `tx.insert` the result). Either way the
 * matches are computed before the first row, and each row is deleted as it is yielded: a row not
 * reached (the caller broke out) stays, rows inserted meanwhile are not matched, and rows the
 * transaction deleted meanwhile are skipped.
 * @example
 * for await (const old of tx.replace('depth < 0')) await tx.insert({ ...old, depth: -old.depth });
 * for await (const b of tx.replace('depth < 0').batches()) await tx.insert(transform(b));
 */
export class Replacement implements AsyncIterable<Row> {
  /** @internal */
  constructor(
    private readonly matches: () => Promise<PartMatches[]>,
    private readonly state: TxState,
    private readonly check: () => void,
  ) {}

  [Symbol.asyncIterator](): AsyncIterator<Row> {
    return new RowIterator(this.matches, this.state, this.check);
  }

  /** The matches as record batches of the table's schema, one or more per partition with matches. */
  async *batches(): AsyncGenerator<RecordBatch> {
    for (const m of await this.matches()) {
      this.check();
      const marker = this.state.marker(m.part, m.rows.length);
      // runs of rows the marker could delete (the transaction had not deleted them meanwhile)
      let lo = 0;
      while (lo < m.rows.length) {
        while (lo < m.rows.length && !marker.mark(m.rows[lo]!)) lo++;
        let hi = lo + 1;
        while (hi < m.rows.length && marker.mark(m.rows[hi]!)) hi++;
        if (lo >= m.rows.length) break;
        yield lo === 0 && hi === m.rows.length ? m.batch! : m.batch!.slice(lo, hi);
        lo = hi + 1;
      }
    }
  }
}

/** Columns are read a slice at a time (bounded memory); each row object is made as it is yielded. */
const SLICE = 4096;

// a plain async iterator: each step is one resolved promise, cheaper than an async generator's machinery
class RowIterator implements AsyncIterator<Row> {
  private all: PartMatches[] | null = null;
  private part = -1;
  private offset = 0;
  private make: (i: number) => Row = () => ({});
  private size = 0;
  private k = 0;
  private marker: RowMarker | null = null;

  constructor(
    private readonly matches: () => Promise<PartMatches[]>,
    private readonly state: TxState,
    private readonly check: () => void,
  ) {}

  next(): Promise<IteratorResult<Row>> {
    if (this.all === null) {
      return this.matches().then((all) => {
        this.all = all;
        return this.step();
      });
    }
    try {
      return Promise.resolve(this.step());
    } catch (e) {
      return Promise.reject(e);
    }
  }

  return(): Promise<IteratorResult<Row>> {
    this.all = [];
    this.size = 0;
    return Promise.resolve({ value: undefined, done: true });
  }

  private step(): IteratorResult<Row> {
    const all = this.all!;
    for (;;) {
      if (this.k < this.size) {
        this.check();
        const m = all[this.part]!;
        const k = this.k++;
        if (this.marker!.mark(m.rows[this.offset + k]!)) return { value: this.make(k), done: false };
        continue;
      }
      const m = all[this.part];
      if (m && this.offset + this.size < m.rows.length) {
        this.offset += this.size;
      } else {
        if (++this.part >= all.length) return { value: undefined, done: true };
        this.offset = 0;
        this.marker = this.state.marker(all[this.part]!.part, all[this.part]!.rows.length);
      }
      const next = all[this.part]!;
      const hi = Math.min(next.rows.length, this.offset + SLICE);
      this.make = rowFactory(this.offset === 0 && hi === next.rows.length ? next.batch! : next.batch!.slice(this.offset, hi));
      this.size = hi - this.offset;
      this.k = 0;
    }
  }
}
