// The CSV parsing worker: a block of whole records through Papa Parse, a piece at a time, every
// column converted into the target types and copied into shared memory (the main thread receives it
// without a copy); blocks are parsed in parallel, in several workers.
import { parentPort, workerData } from 'node:worker_threads';
import type { Data } from 'apache-arrow';
import { RowError } from '../../data/fail.js';
import { decodeSchema } from '../../schema/serialize.js';
import { concatData } from '../../storage/concat.js';
import { lastRecordEnd } from './blocks.js';
import { textColumn } from './convert.js';
import type { ColumnBuffers, ParseReply, ParseRequest, ParseWorkerData } from './protocol.js';
import { parseBlock } from './rows.js';

/** Bytes of CSV parsed at once (a few hundred records). */
const PIECE_BYTES = 1 << 16;
const CR = 0x0d;
const port = parentPort!;
const schema = decodeSchema((workerData as ParseWorkerData).schema);

port.on('message', (m: ParseRequest) => port.postMessage(parse(m)));

function parse(m: ParseRequest): ParseReply {
  try {
    const bytes = Buffer.from(m.bytes.buffer, m.bytes.byteOffset, m.bytes.byteLength);
    const width = schema.fields.length;
    const chunks: Data[][] = schema.fields.map(() => []);
    let rows = 0;
    let cr = bytes.indexOf(CR); // the next CR at or after `from`, or -1
    // a few hundred records at a time: their row arrays and field strings die young, which keeps
    // garbage collection cheap (a whole block's rows alive at once survive scavenges)
    for (let from = 0; from < bytes.length; ) {
      const to = pieceEnd(bytes, from);
      if (cr >= 0 && cr < from) cr = bytes.indexOf(CR, from);
      const records = parseBlock(bytes.toString('utf8', from, to), cr < 0 || cr >= to);
      if (records === null) return { id: m.id, split: true };
      for (let i = 0; i < records.length; i++) {
        const n = records[i]!.length;
        if (n !== width) return { id: m.id, bad: { row: rows + i, col: -1, message: `${n} fields, but the header has ${width}` } };
      }
      const texts = new Array<string>(records.length);
      for (let c = 0; c < width; c++) {
        const field = schema.fields[c]!;
        for (let i = 0; i < records.length; i++) texts[i] = records[i]![c]!;
        try {
          chunks[c]!.push(textColumn(texts, field.name, field.type));
        } catch (e) {
          if (e instanceof RowError) return { id: m.id, bad: { row: rows + e.row, col: c, message: e.message, value: e.value } };
          throw e;
        }
      }
      rows += records.length;
      from = to;
    }
    return { id: m.id, rows, columns: schema.fields.map((f, c) => sharedBuffers(concatData(f.type, chunks[c]!))) };
  } catch (e) {
    return { id: m.id, failure: e instanceof Error ? e.message : String(e) };
  }
}

// the end of the piece of whole records starting at `from`: about PIECE_BYTES, cut after a newline
// outside quotes (or the block's end)
function pieceEnd(bytes: Buffer, from: number): number {
  for (let size = PIECE_BYTES; ; size *= 2) {
    if (from + size >= bytes.length) return bytes.length;
    const cut = lastRecordEnd(bytes.subarray(from, from + size));
    if (cut > 0) return from + cut;
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
