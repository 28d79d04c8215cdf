// Reading rows for /list: engine filter (or row-by-row OQS), resume at a cursor, stop at a budget or limit.
import type { Table } from '@halocline/engine';
import { compileOqs, type OqsNode } from '../oqs/index.js';
import { encodeCursor } from './cursor.js';
import { type JsonRow, rowConverter } from './rows.js';
import { toEngineFilter } from './to-query.js';

/** One item of a listing: rows (up to a batch), or how the listing ended (`next` = the continuation cursor). */
export type ListItem = { readonly rows: JsonRow[] } | { readonly end: true } | { readonly next: string };

/** What one list request reads. */
export interface ListRequest {
  readonly filter: OqsNode;
  /** Matching rows already sent by earlier requests (from the cursor). */
  readonly offset: number;
  /** Most rows this request sends. */
  readonly limit: number;
  /** Processing budget in milliseconds; at least one row is sent per request. */
  readonly budgetMs: number;
}

/**
 * Rows of `table` matching the filter, starting after `offset` matches, then `{end}` or `{next}`.
 * The engine evaluates the filter when it translates; otherwise the compiled OQS runs per row.
 * Rows keep insertion order and inserts append, so an offset resumes exactly where a request stopped.
 * Errors in the filter (unknown column, type mismatch) surface at the first `next()`.
 */
export async function* listRows(table: Table, req: ListRequest): AsyncGenerator<ListItem> {
  const started = performance.now();
  const engine = toEngineFilter(req.filter);
  const test = engine ? undefined : compileOqs(req.filter);
  const cursor = engine && engine.query !== '' ? table.select(engine.query, { vars: engine.vars }) : table.select();
  let skip = req.offset;
  let sent = 0;
  let converter: ReturnType<typeof rowConverter> | undefined;
  for await (const batch of cursor.batches()) {
    // whole batches of already-sent rows are skipped without reading them (engine-filtered case)
    if (test === undefined && skip >= batch.numRows) {
      skip -= batch.numRows;
      continue;
    }
    converter ??= rowConverter(batch.schema);
    const convert = converter(batch);
    const rows: JsonRow[] = [];
    for (let i = test === undefined ? skip : 0; i < batch.numRows; i++) {
      const row = convert(i);
      if (test !== undefined) {
        if (!test(row)) continue;
        if (skip > 0) {
          skip--;
          continue;
        }
      }
      if (sent >= req.limit || (sent > 0 && performance.now() - started > req.budgetMs)) {
        if (rows.length > 0) yield { rows };
        yield { next: encodeCursor(req.offset + sent) };
        return;
      }
      sent++;
      rows.push(row);
    }
    if (rows.length > 0) yield { rows };
    if (test === undefined) skip = 0;
  }
  yield { end: true };
}
