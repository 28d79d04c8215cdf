// Select as a streamed Arrow IPC answer: batch by batch, cut at the time budget with a continuation cursor.
import { RecordBatch, type Schema } from 'apache-arrow';
import { IpcEncoder } from './ipc.js';

/** A select in progress: its batch iterator (holding a pinned snapshot) and the batch read ahead. */
export interface Pinned {
  readonly schema: Schema;
  readonly iter: AsyncIterator<RecordBatch>;
  pending: RecordBatch | null;
}

/** Starts a select: reads the first batch now, so a bad query fails before the answer begins. */
export async function pin(schema: Schema, batches: AsyncIterable<RecordBatch>): Promise<Pinned> {
  const iter = batches[Symbol.asyncIterator]();
  const first = await iter.next();
  return { schema, iter, pending: first.done ? null : first.value };
}

/** Releases a pinned select that will not be continued. */
export function unpin(p: Pinned): void {
  void p.iter.return?.(undefined);
}

/** Where a budgeted answer leaves its continuation: the parked cursor id, or null when the result ended. */
export interface Cut {
  cursor: string | null;
}

/**
 * The batches of `p` until it ends, or until `deadline` has passed and a further batch exists: then
 * `park(p)` keeps the live iterator (and that batch) and names the continuation in `cut.cursor`.
 * A select that ends, fails or is abandoned is released.
 */
export async function* budgeted(p: Pinned, deadline: number, park: (p: Pinned) => string, cut: Cut): AsyncGenerator<RecordBatch> {
  try {
    let next = p.pending;
    p.pending = null;
    while (next) {
      yield next;
      const r = await p.iter.next();
      next = r.done ? null : r.value;
      if (next && Date.now() >= deadline) {
        p.pending = next;
        cut.cursor = park(p);
        return;
      }
    }
  } finally {
    if (cut.cursor === null) unpin(p);
  }
}

/**
 * The IPC stream of `p` within the time budget; a continuation goes into a zero-row batch's metadata
 * (`cursor`) and into the JSON trailer `{"started","ended","cursor"}` after the end-of-stream marker.
 * An error after the first byte becomes a zero-row batch with metadata `error`.
 */
export async function* ipcSelect(p: Pinned, deadline: number, park: (p: Pinned) => string): AsyncGenerator<Buffer> {
  const started = new Date().toISOString();
  const enc = new IpcEncoder(p.schema);
  const cut: Cut = { cursor: null };
  let wrote = false;
  try {
    // a batch's large buffers go out as views (a large result is never copied into one buffer), runs
    // of small pieces as one write each: every write is an HTTP chunk the client parses on its own
    for await (const b of budgeted(p, deadline, park, cut)) {
      yield* coalesce(enc.batchChunks(b));
      wrote = true;
    }
    if (cut.cursor) yield enc.marker(new Map([['cursor', cut.cursor]]));
    else if (!wrote) yield enc.batch(new RecordBatch(p.schema, undefined));
  } catch (e) {
    yield enc.marker(new Map([['error', (e as Error).message], ['error_code', String((e as { code?: unknown }).code ?? 'Internal')]]));
  }
  yield enc.end();
  yield Buffer.from(JSON.stringify({ started, ended: new Date().toISOString(), cursor: cut.cursor }));
}

/** Pieces of at least this many bytes are written as they are; smaller neighbours are joined. */
const VIEW_MIN = 64 << 10;

/** `pieces` with each run of pieces under `VIEW_MIN` bytes joined into one buffer (same bytes, same order). */
export function coalesce(pieces: readonly Buffer[]): Buffer[] {
  const out: Buffer[] = [];
  let run: Buffer[] = [];
  const flush = () => {
    if (run.length > 0) out.push(run.length === 1 ? run[0]! : Buffer.concat(run));
    run = [];
  };
  for (const p of pieces) {
    if (p.byteLength >= VIEW_MIN) {
      flush();
      out.push(p);
    } else run.push(p);
  }
  flush();
  return out;
}

/** NDJSON rows (JSON-safe values), then `{"@@next": cursor}` or `{"@@end": true}`, like tabular v1. */
export async function* ndjsonSelect(p: Pinned, deadline: number, park: (p: Pinned) => string, toRows: (b: RecordBatch) => Record<string, unknown>[]): AsyncGenerator<string> {
  const cut: Cut = { cursor: null };
  for await (const b of budgeted(p, deadline, park, cut)) yield `${toRows(b).map((r) => JSON.stringify(r, jsonSafe)).join('\n')}\n`;
  yield `${JSON.stringify(cut.cursor ? { '@@next': cut.cursor } : { '@@end': true })}\n`;
}

/** JSON.stringify replacer: bigint as a number when exact (else a string), bytes as base64. */
export function jsonSafe(_key: string, v: unknown): unknown {
  if (typeof v === 'bigint') return v >= -9007199254740991n && v <= 9007199254740991n ? Number(v) : v.toString();
  if (v instanceof Uint8Array) return Buffer.from(v).toString('base64');
  if (v && typeof v === 'object' && (v as { type?: unknown }).type === 'Buffer' && Array.isArray((v as { data?: unknown }).data)) {
    return Buffer.from((v as { data: number[] }).data).toString('base64');
  }
  return v;
}
