// The IPC metadata verifier: sound streams of every type pass; damaged metadata is refused with a reason
// before apache-arrow decodes it (it used to loop for seconds or run the process out of memory).
import fc from 'fast-check';
import {
  Binary,
  Bool,
  Dictionary,
  Field,
  Float64,
  Int32,
  Int64,
  LargeUtf8,
  List,
  RecordBatch,
  RecordBatchStreamWriter,
  Schema,
  Struct,
  Table,
  TimestampMillisecond,
  Utf8,
  tableFromArrays,
  tableFromIPC,
  tableToIPC,
  vectorFromArray,
} from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { isHaloclineError } from '../errors.js';
import { batchProblem } from './batch-check.js';
import { readIpcStream } from './ipc-stream.js';
import { ipcMessageProblem, ipcStreamProblem } from './ipc-verify.js';

// one batch of every kind of column the engine reads, with custom metadata on the schema and a field
function everyType(): Table {
  const t = new Table({
    i: vectorFromArray([1, null, 3, 4, 5], new Int32()),
    f: vectorFromArray([1.5, 2, 3, 4, 5], new Float64()),
    s: vectorFromArray(['a', 'bb', null, 'dddd', ''], new Utf8()),
    ls: vectorFromArray(['x', 'y', 'z', 'w', 'v'], new LargeUtf8()),
    b: vectorFromArray([true, false, null, true, false], new Bool()),
    t: vectorFromArray([1, 2, 3, 4, 5].map((x) => new Date(x * 1e9)), new TimestampMillisecond('UTC')),
    d: vectorFromArray(['a', 'b', 'a', null, 'c'], new Dictionary(new Utf8(), new Int32())),
    l: vectorFromArray([[1], [2, 3], null, [], [4]], new List(new Field('item', new Float64(), true))),
    st: vectorFromArray(
      [{ x: 1n, y: new Uint8Array([1]) }, { x: 2n, y: new Uint8Array(0) }, null, { x: 4n, y: new Uint8Array([4, 4]) }, { x: 5n, y: null }],
      new Struct([new Field('x', new Int64()), new Field('y', new Binary(), true)]),
    ),
  });
  const fields = t.schema.fields.map((f) => (f.name === 'i' ? new Field('i', f.type, true, new Map([['unit', 'm']])) : f));
  const schema = new Schema(fields, new Map([['source', 'test']]));
  return new Table(schema, t.batches.map((b) => new RecordBatch(schema, b.data)));
}

const streamOf = (t: Table, legacy = false): Uint8Array => {
  const w = new RecordBatchStreamWriter({ writeLegacyIpcFormat: legacy });
  for (const b of t.batches) w.write(b);
  return w.finish().toUint8Array(true);
};

// where each message's metadata lies in a (well-formed, modern-format) stream: [start, end) pairs
function metadataRanges(bytes: Uint8Array): [number, number][] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out: [number, number][] = [];
  for (let at = 0; at + 8 <= bytes.byteLength; ) {
    const length = view.getInt32(at + 4, true);
    if (length === 0) break;
    const meta = bytes.subarray(at + 8, at + 8 + length);
    const m = new DataView(meta.buffer, meta.byteOffset, meta.byteLength);
    const root = m.getUint32(0, true);
    const vt = root - m.getInt32(root, true);
    const bodyAt = m.getUint16(vt, true) > 10 ? m.getUint16(vt + 10, true) : 0;
    const body = bodyAt === 0 ? 0 : Number(m.getBigInt64(root + bodyAt, true));
    out.push([at + 8, at + 8 + length]);
    at += 8 + length + body;
  }
  return out;
}

// decodes `bytes` as the server reads a body; what it yields must be sound or named by batchProblem
async function decodeOrRefuse(bytes: Uint8Array): Promise<'refused' | 'decoded'> {
  try {
    for await (const b of readIpcStream([bytes])) batchProblem(b);
    return 'decoded';
  } catch (e) {
    expect(e).toBeInstanceOf(Error);
    return 'refused';
  }
}

describe('ipcStreamProblem', () => {
  it('passes sound streams of every column type, in both IPC formats, and they decode as written', async () => {
    const t = everyType();
    for (const legacy of [false, true]) {
      const bytes = streamOf(t, legacy);
      expect(ipcStreamProblem(bytes)).toBeUndefined();
      const batches = [];
      for await (const b of readIpcStream([bytes])) batches.push(b);
      const rows = (x: Table) => x.toArray().map((r) => JSON.stringify(r, (_, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v)));
      expect(rows(new Table(batches))).toEqual(rows(t));
    }
    expect(ipcStreamProblem(tableToIPC(tableFromArrays({ x: new Float64Array(0) }), 'stream'))).toBeUndefined();
  });

  it('refuses the damage that made apache-arrow loop or run out of memory, naming what is wrong', async () => {
    const bytes = tableToIPC(tableFromArrays({ x: Float64Array.from({ length: 1000 }, (_, i) => i) }), 'stream');
    // byte 58 is the high byte of the schema's custom-metadata vector length, byte 40 that of its vtable size
    const at58 = bytes.slice();
    at58[58] = 0xff;
    expect(ipcStreamProblem(at58)).toMatch(/message 0: a vector of \d+ elements at byte \d+ runs past the \d+ bytes of metadata/);
    const at40 = bytes.slice();
    at40[40] = 0xff;
    expect(ipcStreamProblem(at40)).toMatch(/message 0: the Schema table at byte \d+ has a malformed vtable/);
    for (const damaged of [at58, at40]) {
      await expect(decodeOrRefuse(damaged)).resolves.toBe('refused');
      await expect(async () => {
        for await (const _ of readIpcStream([damaged]));
      }).rejects.toSatisfy((e: unknown) => isHaloclineError(e, 'Corrupt') && /^unreadable Arrow IPC stream: a vector|^unreadable Arrow IPC stream: the Schema table/.test((e as Error).message));
    }
  });

  it('refuses or safely decodes every byte of every message\'s metadata set to 0x00, 0x7f, 0x80 or 0xff', async () => {
    const bytes = streamOf(everyType());
    const ranges = metadataRanges(bytes);
    expect(ranges.length).toBe(3); // schema, dictionary batch, record batch
    let refused = 0;
    let cases = 0;
    for (const [start, end] of ranges) {
      for (let at = start; at < end; at++) {
        for (const value of [0x00, 0x7f, 0x80, 0xff]) {
          if (bytes[at] === value) continue;
          const damaged = bytes.slice();
          damaged[at] = value;
          cases++;
          const problem = ipcStreamProblem(damaged);
          if (problem !== undefined) {
            expect(typeof problem).toBe('string');
            refused++;
          } else {
            // what the verifier lets through is structurally sound: apache-arrow decodes or rejects it at once
            try {
              tableFromIPC(damaged);
            } catch {
              // a type or layout apache-arrow refuses (say, a bit width it has no class for)
            }
          }
          await decodeOrRefuse(damaged);
        }
      }
    }
    // most damage is caught by the structure alone (the rest changes scalars: lengths, widths, flags)
    expect(refused).toBeGreaterThan(cases / 4);
  });

  it('refuses random damage to a stream or decodes it into batches batchProblem can judge', async () => {
    const bytes = streamOf(everyType());
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.nat({ max: bytes.length - 1 }), fc.nat({ max: 255 })), { minLength: 1, maxLength: 6 }), async (edits) => {
        const damaged = bytes.slice();
        for (const [at, value] of edits) damaged[at] = value;
        await decodeOrRefuse(damaged);
      }),
      { numRuns: 300 },
    );
  });

  it('refuses framing that runs past the bytes, and a body past the end', () => {
    const bytes = tableToIPC(tableFromArrays({ x: Float64Array.from({ length: 10 }, (_, i) => i) }), 'stream');
    expect(ipcStreamProblem(bytes.subarray(0, 6))).toMatch(/message 0 is cut off/);
    const [, end] = metadataRanges(bytes)[0]!;
    expect(ipcStreamProblem(bytes.subarray(0, end - 3))).toMatch(/message 0 claims \d+ bytes of metadata/);
    // the record batch's body cut short: its length is over what is left
    expect(ipcStreamProblem(bytes.subarray(0, bytes.length - 40))).toMatch(/message 1: a message body of \d+ bytes, over the limit of \d+/);
  });
});

describe('ipcMessageProblem', () => {
  it('refuses buffers outside the body and inconsistent field nodes', () => {
    const bytes = tableToIPC(tableFromArrays({ x: Float64Array.from({ length: 10 }, (_, i) => i) }), 'stream');
    const [, [start, end]] = metadataRanges(bytes) as [[number, number], [number, number]];
    const meta = bytes.slice(start, end);
    expect(ipcMessageProblem(meta)).toBeUndefined();
    // the body length read back and made smaller than the buffers need
    const m = new DataView(meta.buffer);
    const root = m.getUint32(0, true);
    const vt = root - m.getInt32(root, true);
    const bodyAt = root + m.getUint16(vt + 10, true);
    const body = Number(m.getBigInt64(bodyAt, true));
    m.setBigInt64(bodyAt, BigInt(body - 8), true);
    expect(ipcMessageProblem(meta)).toMatch(/buffer \d+ \(\d+, \d+ bytes\) lies outside the \d+-byte body/);
    m.setBigInt64(bodyAt, -1n, true);
    expect(ipcMessageProblem(meta)).toBe('a message body length of -1');
    m.setBigInt64(bodyAt, BigInt(body), true);
    expect(ipcMessageProblem(meta, body - 1)).toBe(`a message body of ${body} bytes, over the limit of ${body - 1}`);
    expect(ipcMessageProblem(new Uint8Array(2))).toBe('2 bytes of message metadata');
    // the record batch's row count (RecordBatch slot 0) made negative
    const header = root + m.getUint16(vt + 8, true);
    const batch = header + m.getUint32(header, true);
    const batchVt = batch - m.getInt32(batch, true);
    m.setBigInt64(batch + m.getUint16(batchVt + 4, true), -5n, true);
    expect(ipcMessageProblem(meta)).toBe('a record batch of -5 rows');
  });
});
