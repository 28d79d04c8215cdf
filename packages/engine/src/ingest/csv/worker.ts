// The CSV parsing worker: a block of whole records through Papa Parse, every column converted into
// the target types and copied into shared memory (the main thread receives it without a copy);
// blocks are parsed in parallel, in several workers.
import { parentPort, workerData } from 'node:worker_threads';
import type { Data } from 'apache-arrow';
import { RowError } from '../../data/fail.js';
import { decodeSchema } from '../../schema/serialize.js';
import { textColumn } from './convert.js';
import type { ColumnBuffers, ParseReply, ParseRequest, ParseWorkerData } from './protocol.js';
import { parseBlock } from './rows.js';

const port = parentPort!;
const schema = decodeSchema((workerData as ParseWorkerData).schema);

port.on('message', (m: ParseRequest) => port.postMessage(parse(m)));

function parse(m: ParseRequest): ParseReply {
  try {
    const rows = parseBlock(Buffer.from(m.bytes.buffer, m.bytes.byteOffset, m.bytes.byteLength).toString('utf8'));
    if (rows === null) return { id: m.id, split: true };
    const width = schema.fields.length;
    for (let i = 0; i < rows.length; i++) {
      const n = rows[i]!.length;
      if (n !== width) return { id: m.id, bad: { row: i, col: -1, message: `${n} fields, but the header has ${width}` } };
    }
    const columns: ColumnBuffers[] = [];
    const texts = new Array<string>(rows.length);
    for (let c = 0; c < width; c++) {
      const field = schema.fields[c]!;
      for (let i = 0; i < rows.length; i++) texts[i] = rows[i]![c]!;
      try {
        columns.push(sharedBuffers(textColumn(texts, field.name, field.type)));
      } catch (e) {
        if (e instanceof RowError) return { id: m.id, bad: { row: e.row, col: c, message: e.message, value: e.value } };
        throw e;
      }
    }
    return { id: m.id, rows: rows.length, columns };
  } catch (e) {
    return { id: m.id, failure: e instanceof Error ? e.message : String(e) };
  }
}

function sharedBuffers(data: Data): ColumnBuffers {
  return {
    values: shared(data.values),
    offsets: data.valueOffsets ? shared(data.valueOffsets) : undefined,
    bitmap: data.nullCount > 0 && data.nullBitmap ? shared(data.nullBitmap) : undefined,
    nullCount: data.nullCount,
  };
}

// a copy of `a` in a SharedArrayBuffer
function shared<T extends ArrayBufferView>(a: T): T {
  const ctor = a.constructor as new (b: SharedArrayBuffer) => T & { set(v: T): void };
  const out = new ctor(new SharedArrayBuffer(a.byteLength));
  out.set(a);
  return out;
}
