// The CSV parsing worker: a block of whole records through Papa Parse, every column converted into
// the target types, the buffers sent back; blocks are parsed in parallel, in several workers.
import { parentPort, workerData } from 'node:worker_threads';
import { RowError } from '../../data/fail.js';
import { decodeSchema } from '../../schema/serialize.js';
import { textColumn } from './convert.js';
import type { ColumnBuffers, ParseReply, ParseRequest, ParseWorkerData } from './protocol.js';
import { parseText } from './rows.js';

const port = parentPort!;
const schema = decodeSchema((workerData as ParseWorkerData).schema);

port.on('message', (m: ParseRequest) => port.postMessage(parse(m)));

function parse(m: ParseRequest): ParseReply {
  try {
    const rows = parseText(Buffer.from(m.bytes.buffer, m.bytes.byteOffset, m.bytes.byteLength).toString('utf8'));
    const width = schema.fields.length;
    for (let i = 0; i < rows.length; i++) {
      const n = rows[i]!.length;
      if (n !== width) return { id: m.id, bad: { row: i, col: -1, message: `${n} fields, but the header has ${width}` } };
    }
    const columns: ColumnBuffers[] = [];
    for (let c = 0; c < width; c++) {
      const field = schema.fields[c]!;
      const texts = new Array<string>(rows.length);
      for (let i = 0; i < rows.length; i++) texts[i] = rows[i]![c]!;
      try {
        const data = textColumn(texts, field.name, field.type);
        columns.push({ values: data.values, offsets: data.valueOffsets ?? undefined, bitmap: data.nullBitmap ?? undefined, nullCount: data.nullCount });
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
