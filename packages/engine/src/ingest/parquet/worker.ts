// A Parquet worker: parquet-wasm decodes one row group at a time into Arrow IPC bytes. It runs in
// its own thread because WebAssembly memory growth detaches ArrayBuffers, which slows every
// typed-array loop of the isolate it happens in; here that isolate does nothing else.
import { parentPort } from 'node:worker_threads';
import { type Schema, tableFromIPC } from 'apache-arrow';
import { parseRecordBatch } from 'arrow-js-ffi';
import { ParquetFile, wasmMemory } from 'parquet-wasm';
import { HaloclineError, ownContext } from '../../errors.js';
import { conformFileBatch } from '../conform.js';
import { SharedPool } from '../../write/shared-pool.js';
import { type PartTarget, placeBatch } from './place.js';
import type { FromWorker, ToWorker } from './protocol.js';

const port = parentPort!;
const waiting = new Map<number, { resolve: (b: ArrayBuffer) => void; reject: (e: Error) => void }>();
let nextReq = 0;
interface Target {
  readonly schema: Schema;
  readonly rename: ReadonlyMap<string, string>;
  readonly table: string;
}
let current: { session: number; file: Promise<ParquetFile>; target?: Target } | undefined;

const send = (message: FromWorker) => port.postMessage(message);

// bytes [start, end) of the file, fetched through the main thread's BlobStore
function range(start: number, end: number): Promise<ArrayBuffer> {
  const req = nextReq++;
  return new Promise((resolve, reject) => {
    waiting.set(req, { resolve, reject });
    send({ kind: 'range', req, start, end });
  });
}

// the Blob interface parquet-wasm's reader calls: size, slice(start, end).arrayBuffer()
function remoteBlob(start: number, end: number): unknown {
  return {
    size: end - start,
    type: '',
    slice: (a = 0, b = end - start) => remoteBlob(start + a, start + Math.min(b, end - start)),
    arrayBuffer: () => range(start, end),
  };
}

/**
 * Shared memory for the copies of columns that are not placed (strings, bools), given back by the
 * main thread once it has copied them (`recycle`): reused, so not fresh pages that fault.
 */
const pieceBuffers = new SharedPool({ maxBytes: 64 << 20, idleMs: 10_000 });
const copies = (bytes: number) => pieceBuffers.acquire(bytes);

/** A buffer whose length can change without giving its pages back (ES2024 resizable ArrayBuffer). */
type Resizable = ArrayBuffer & { resize(bytes: number): void; readonly maxByteLength: number };
const Resizable = ArrayBuffer as unknown as new (bytes: number, options: { maxByteLength: number }) => Resizable;
/** Resizable buffers free for the next range. */
const spare: Resizable[] = [];

// The main thread's bytes (a view of its pooled shared memory, wanted back at once) as a buffer of
// exactly their size, which parquet-wasm wants: copied into one of this thread's resizable buffers,
// memory it has touched before (fresh pages would fault, see write/shared-pool.ts). parquet-wasm
// views the whole buffer it gets and copies it into its own memory right after the promise
// resolves (its Blob reader: `Uint8Array::new(&buf).to_vec()` after the await, polled in a
// microtask), so the buffer is free again after this turn of the event loop.
function exactCopy(bytes: Uint8Array): ArrayBuffer {
  let buffer = spare.pop();
  if (!buffer || buffer.maxByteLength < bytes.length) buffer = new Resizable(bytes.length, { maxByteLength: Math.max(bytes.length, 64 << 20) });
  buffer.resize(bytes.length);
  new Uint8Array(buffer).set(bytes);
  const free = buffer;
  setImmediate(() => spare.push(free));
  return buffer;
}

async function open(session: number, size: number): Promise<void> {
  const previous = current;
  const file = ParquetFile.fromFile(remoteBlob(0, size) as Blob);
  current = { session, file };
  previous?.file.then((f) => f.free()).catch(() => undefined);
  const f = await file;
  const meta = f.metadata();
  const groups = meta.rowGroups().map((g) => ({ rows: g.numRows(), bytes: g.compressedSize() }));
  const kv = [...(meta.fileMetadata().keyValueMetadata() as Map<string, string>)].filter(([k]) => k !== 'ARROW:schema');
  send({ kind: 'meta', session, schema: f.schema().intoIPCStream(), groups, kv });
}

// decodes, conforms and places a row group; a row that does not convert is reported for this group
async function place(session: number, group: number, firstRow: number, targets: readonly PartTarget[]): Promise<void> {
  if (current?.session !== session || !current.target) return;
  const { schema, rename, table } = current.target;
  const f = await current.file;
  const rows = f.metadata().rowGroup(group).numRows();
  // the decoded columns are read in place in wasm memory (Arrow C data interface), not serialized:
  // conforming and placing copy each value once, into shared memory
  const decoded = (await f.read({ rowGroups: [group], batchSize: Math.max(1, rows) })).intoFFI();
  const pieces = [];
  try {
    let at = 0;
    for (let b = 0; b < decoded.numArrays(); b++) {
      // views of wasm memory: no wasm call may run (and grow it) until this batch is placed
      const batch = parseRecordBatch(wasmMemory().buffer, decoded.arrayAddr(b), decoded.schemaAddr(), false);
      pieces.push(...placeBatch(conformFileBatch(schema, batch, rename, firstRow + at, table), at, targets, copies));
      at += batch.numRows;
    }
  } catch (e) {
    if (!(e instanceof HaloclineError)) throw e;
    send({ kind: 'invalid', session, group, code: e.code, message: e.message, context: ownContext(e) });
    return;
  } finally {
    decoded.free();
  }
  send({ kind: 'placed', session, group, pieces });
}

const fail = (session: number) => (e: unknown) => send({ kind: 'error', session, message: e instanceof Error ? e.message : String(e) });

port.on('message', (m: ToWorker) => {
  switch (m.kind) {
    case 'open':
      open(m.session, m.size).catch(fail(m.session));
      break;
    case 'range': {
      const wait = waiting.get(m.req);
      waiting.delete(m.req);
      wait?.resolve(exactCopy(m.bytes));
      send({ kind: 'range-copied', req: m.req });
      break;
    }
    case 'range-error':
      waiting.get(m.req)?.reject(new Error(m.message));
      waiting.delete(m.req);
      break;
    case 'recycle':
      for (const b of m.buffers) pieceBuffers.release(b);
      break;
    case 'target':
      if (current?.session === m.session) {
        current.target = { schema: tableFromIPC(m.schema).schema, rename: new Map(m.rename), table: m.table };
      }
      break;
    case 'place':
      place(m.session, m.group, m.firstRow, m.targets).catch(fail(m.session));
      break;
  }
});
