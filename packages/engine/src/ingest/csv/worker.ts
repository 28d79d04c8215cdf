// The CSV parsing worker: a block of whole records tokenized as bytes (tokenize.ts), a piece at a
// time, every column converted into the target types (fields.ts) and copied into shared memory (the
// main thread receives it without a copy); blocks are parsed in parallel, in several workers.
import { parentPort } from 'node:worker_threads';
import { type Data, type DataType, type Schema, Type } from 'apache-arrow';
import { RowError } from '../../data/fail.js';
import { decodeSchema } from '../../schema/serialize.js';
import { concatData } from '../../storage/concat.js';
import { lastRecordEnd } from './blocks.js';
import { Piece, fieldColumn } from './fields.js';
import type { ColumnBuffers, ParseReply, ParseRequest, SchemaMessage } from './protocol.js';
import { Fields, tokenize } from './tokenize.js';
import { sharedCopy } from '../../exec/arrays.js';
import { sharedBuffer } from '../../exec/shared-memory.js';

/** Bytes of CSV parsed at once (a few hundred records). */
const PIECE_BYTES = 1 << 16;
const port = parentPort!;
// set by the schema message an ingest sends first (a worker serves one ingest at a time)
let schema: Schema;
let fields: Fields;

port.on('message', (m: ParseRequest | SchemaMessage) => {
  if ('id' in m) port.postMessage(parse(m));
  else {
    schema = decodeSchema(m.schema);
    fields = new Fields(schema.fields.length);
  }
});

function parse(m: ParseRequest): ParseReply {
  try {
    const bytes = Buffer.from(m.bytes.buffer, m.bytes.byteOffset, m.bytes.byteLength);
    const width = schema.fields.length;
    const chunks: Data[][] = schema.fields.map(() => []);
    let rows = 0;
    // a few hundred records at a time: the field ranges are reused, and what field strings are made
    // die young
    for (let from = 0; from < bytes.length; ) {
      const to = pieceEnd(bytes, from);
      if (!tokenize(bytes, from, to, fields)) return { id: m.id, split: true };
      if (fields.ragged) {
        const { row, count } = fields.ragged;
        return { id: m.id, bad: { row: rows + row, col: -1, message: `${count} fields, but the header has ${width}` } };
      }
      const piece = new Piece(bytes, from, to, fields);
      for (let c = 0; c < width; c++) {
        const field = schema.fields[c]!;
        try {
          chunks[c]!.push(fieldColumn(piece, c, field.name, field.type));
        } catch (e) {
          if (e instanceof RowError) return { id: m.id, bad: { row: rows + e.row, col: c, message: e.message, value: e.value } };
          throw e;
        }
      }
      rows += fields.rows;
      from = to;
    }
    return { id: m.id, rows, columns: schema.fields.map((f, c) => joinShared(f.type, chunks[c]!)) };
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

// the pieces' chunks of one column joined in shared memory: without nulls, fixed-width values and
// utf8 are copied once, straight into it; the rest joined first (concatData), then copied
function joinShared(type: DataType, chunks: readonly Data[]): ColumnBuffers {
  if (chunks.every((d) => d.nullCount === 0 && d.offset === 0)) {
    const rows = chunks.reduce((n, d) => n + d.length, 0);
    if (type.typeId === Type.Utf8) {
      const bytes = new Uint8Array(sharedBuffer(chunks.reduce((n, d) => n + (d.valueOffsets as Int32Array)[d.length]!, 0)));
      const offsets = new Int32Array(sharedBuffer(4 * (rows + 1)));
      let row = 0;
      for (const d of chunks) {
        const from = offsets[row]!;
        const own = d.valueOffsets as Int32Array;
        for (let i = 1; i <= d.length; i++) offsets[row + i] = from + own[i]!;
        bytes.set((d.values as Uint8Array).subarray(0, own[d.length]!), from);
        row += d.length;
      }
      return { values: bytes, offsets, nullCount: 0 };
    }
    const first = chunks[0]?.values as Float64Array | undefined;
    const fixed = type.typeId === Type.Float || type.typeId === Type.Int || type.typeId === Type.Timestamp;
    if (fixed && first && chunks.every((d) => d.values.length === d.length && d.values.constructor === first.constructor)) {
      const values = new (first.constructor as Float64ArrayConstructor)(sharedBuffer(rows * first.BYTES_PER_ELEMENT));
      let row = 0;
      for (const d of chunks) {
        values.set(d.values as Float64Array, row);
        row += d.length;
      }
      return { values, nullCount: 0 };
    }
  }
  return sharedBuffers(concatData(type, chunks));
}

function sharedBuffers(data: Data): ColumnBuffers {
  return {
    values: sharedCopy(data.values),
    offsets: data.valueOffsets ? sharedCopy(data.valueOffsets) : undefined,
    bitmap: data.nullCount > 0 && data.nullBitmap ? sharedCopy(data.nullBitmap) : undefined,
    nullCount: data.nullCount,
  };
}

