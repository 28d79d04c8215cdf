// Reading rows for /list: engine filter (or row-by-row OQS) over one snapshot, stopping at a budget or
// limit with the scan parked, so a continuation resumes exactly after the last row sent.
import type { Table } from '@halocline/engine';
import type { RecordBatch, Schema } from 'apache-arrow';
import { compileOqs, type OqsNode } from '../oqs/index.js';
import { rowFilter } from './row-filter.js';
import { type JsonRow, rowConverter } from './rows.js';
import { toEngineFilter } from './to-query.js';

/** One item of a listing: rows (up to a batch), or how the listing ended (`next` = the continuation cursor). */
export type ListItem = { readonly rows: JsonRow[] } | { readonly end: true } | { readonly next: string };

/**
 * A listing in progress: the engine's batch stream (which pins its snapshot until it is returned),
 * the row-by-row test when the engine cannot evaluate the filter, and where the current batch stands.
 */
export interface ListScan {
  readonly batches: AsyncGenerator<RecordBatch>;
  readonly test: ((row: JsonRow) => boolean) | undefined;
  batch: RecordBatch | null;
  convert: ((i: number) => JsonRow) | null;
  at: number;
}

/** What one list request reads. */
export interface ListRequest {
  /** Most rows this request sends. */
  readonly limit: number;
  /** Processing budget in milliseconds; at least one row is sent per request. */
  readonly budgetMs: number;
  /** Keeps a scan with rows left for the next request; returns the continuation cursor. */
  readonly park: (scan: ListScan) => string;
  /** About the most bytes of row values this request sends (estimated by `rowBytes`); at least one row is sent. */
  readonly maxBytes?: number;
}

/**
 * Starts a listing of `table` (of `schema`). Errors in a filter the engine evaluates (unknown column,
 * type mismatch) surface at the first read; in one tested row by row (see `rowFilter`), here.
 */
export function openList(table: Table, schema: Schema, filter: OqsNode): ListScan {
  const engine = toEngineFilter(filter, schema);
  const test = engine ? undefined : compileOqs(rowFilter(filter, schema));
  const cursor = engine && engine.query !== '' ? table.select(engine.query, { vars: engine.vars }) : table.select();
  return { batches: cursor.batches(), test, batch: null, convert: null, at: 0 };
}

/** Releases a parked or abandoned listing (its snapshot pin). */
export function closeList(scan: ListScan): void {
  void scan.batches.return(undefined).catch(() => undefined);
}

/**
 * Matching rows of `scan`, then `{end}`, or `{next}` once the limit or the budget is reached with
 * rows left (the scan is parked under that cursor, on the same snapshot). A listing that ends, fails
 * or is abandoned (the client went away) releases its snapshot.
 */
export async function* listRows(scan: ListScan, req: ListRequest): AsyncGenerator<ListItem> {
  const state = { sent: 0, bytes: 0, parked: false, started: performance.now() };
  const maxBytes = req.maxBytes ?? Number.POSITIVE_INFINITY;
  try {
    while (await current(scan)) {
      const rows: JsonRow[] = [];
      for (; scan.at < scan.batch!.numRows; scan.at++) {
        const full = state.sent >= req.limit || (state.sent > 0 && (state.bytes >= maxBytes || performance.now() - state.started > req.budgetMs));
        if (full) {
          if (rows.length > 0) yield { rows };
          state.parked = true;
          yield { next: req.park(scan) };
          return;
        }
        const row = scan.convert!(scan.at);
        if (scan.test !== undefined && !scan.test(row)) continue;
        state.sent++;
        if (maxBytes !== Number.POSITIVE_INFINITY) state.bytes += rowBytes(row);
        rows.push(row);
      }
      if (rows.length > 0) yield { rows };
    }
    yield { end: true };
  } finally {
    if (!state.parked) closeList(scan);
  }
}

/** A cheap estimate of a row's JSON size: string lengths, 8 bytes for any other value. */
export function rowBytes(row: JsonRow): number {
  let n = 0;
  for (const k in row) {
    const v = row[k];
    n += k.length + (typeof v === 'string' ? v.length : 8);
  }
  return n;
}

// makes scan.batch a batch with rows left at scan.at; false at the end of the stream
async function current(scan: ListScan): Promise<boolean> {
  while (scan.batch === null || scan.at >= scan.batch.numRows) {
    const next = await scan.batches.next();
    if (next.done) return false;
    scan.batch = next.value;
    scan.convert = rowConverter(next.value.schema)(next.value);
    scan.at = 0;
  }
  return true;
}
