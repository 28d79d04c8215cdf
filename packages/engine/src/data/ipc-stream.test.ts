// The response framer: any chunking of an IPC stream gives the same batches, metadata, dictionaries and trailer.
import { PassThrough } from 'node:stream';
import fc from 'fast-check';
import { Dictionary, Float64, Int32, RecordBatch, RecordBatchStreamWriter, Table as ArrowTable, Utf8, tableFromArrays, vectorFromArray } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { IpcFramer, type IpcReadOptions, readIpcStream } from './ipc-stream.js';

const table = tableFromArrays({ depth: Float64Array.from({ length: 1000 }, (_, i) => i / 3), name: Array.from({ length: 1000 }, (_, i) => `s${i % 7}`) });
const stream = (legacy = false): Uint8Array => {
  const w = new RecordBatchStreamWriter({ writeLegacyIpcFormat: legacy });
  w.write(table.batches[0]!.slice(0, 400));
  w.write(new RecordBatch(table.schema, table.batches[0]!.slice(400).data, new Map([['k', 'v']])));
  w.write(new RecordBatch(table.schema, undefined, new Map([['cursor', 'abc']])));
  return w.finish().toUint8Array(true);
};
const trailer = '{"started":"a","ended":"b","cursor":"abc"}';

async function* split(bytes: Uint8Array, cuts: number[]): AsyncGenerator<Uint8Array> {
  let at = 0;
  for (const c of [...new Set(cuts)].sort((a, b) => a - b)) {
    yield bytes.subarray(at, c);
    at = c;
  }
  yield bytes.subarray(at);
}

async function readAll(body: AsyncIterable<Uint8Array> | Iterable<Uint8Array> | PassThrough, options: IpcReadOptions = {}) {
  const it = readIpcStream(body, options);
  const out = [];
  let r = await it.next();
  for (; !r.done; r = await it.next()) out.push(r.value);
  return { batches: out, end: r.value };
}

describe('readIpcStream', () => {
  it('decodes the same batches, metadata and trailer whatever the chunking (both IPC formats)', async () => {
    for (const legacy of [false, true]) {
      const bytes = Buffer.concat([stream(legacy), Buffer.from(trailer)]);
      await fc.assert(fc.asyncProperty(fc.array(fc.integer({ min: 0, max: bytes.byteLength }), { maxLength: 40 }), async (cuts) => {
        const { batches, end } = await readAll(split(bytes, cuts));
        expect(batches.map((b) => b.numRows)).toEqual([400, 600, 0]);
        expect(batches[1]!.metadata.get('k')).toBe('v');
        expect(batches[2]!.metadata.get('cursor')).toBe('abc');
        expect(new ArrowTable(batches).toArray().map((r) => r.toJSON())).toEqual(table.toArray().map((r) => r.toJSON()));
        expect(end.schema.fields.map((f) => f.name)).toEqual(['depth', 'name']);
        expect(end.trailer).toBe(trailer);
      }), { numRuns: 60 });
    }
  });

  it('bodies read in place (views) or copied give the same batches for any chunking; views only of aligned bodies inside one chunk', async () => {
    const bytes = Buffer.concat([stream(), Buffer.from(trailer)]);
    const expected = table.toArray().map((r) => r.toJSON());
    let viewed = 0;
    let copied = 0;
    await fc.assert(fc.asyncProperty(fc.array(fc.integer({ min: 0, max: bytes.byteLength }), { maxLength: 12 }), async (cuts) => {
      // each chunk in its own memory, as a socket read gives it
      const chunks: Uint8Array[] = [];
      for await (const c of split(bytes, cuts)) chunks.push(new Uint8Array(c));
      const owners = new Set(chunks.map((c) => c.buffer));
      for (const views of [true, false]) {
        const { batches, end } = await readAll((async function* () { yield* chunks; })(), { views });
        expect(batches.map((b) => b.numRows)).toEqual([400, 600, 0]);
        expect(batches[1]!.metadata.get('k')).toBe('v');
        expect(new ArrowTable(batches.slice(0, 2)).toArray().map((r) => r.toJSON())).toEqual(expected);
        expect(end.trailer).toBe(trailer);
        for (const b of batches.slice(0, 2)) {
          const values = b.getChild('depth')!.data[0]!.values as Float64Array;
          expect(values.byteOffset % 8).toBe(0);
          const inPlace = owners.has(values.buffer as ArrayBuffer);
          if (!views) expect(inPlace).toBe(false);
          else if (inPlace) viewed++;
          else copied++;
        }
      }
    }), { numRuns: 80 });
    // both paths were taken: a property that never read in place would prove nothing about views
    expect(viewed).toBeGreaterThan(0);
    expect(copied).toBeGreaterThan(0);
  });

  it('with views off nothing pushed is kept: a pusher that reuses one buffer for every chunk gets the same batches, metadata and trailer', async () => {
    const bytes = Buffer.concat([stream(), Buffer.from(trailer)]);
    const expected = table.toArray().map((r) => r.toJSON());
    await fc.assert(fc.asyncProperty(fc.array(fc.integer({ min: 0, max: bytes.byteLength }), { maxLength: 30 }), async (cuts) => {
      // as a socket reading into one reused buffer: each chunk is overwritten (here with garbage) once push returns
      const reused = new Uint8Array(bytes.byteLength);
      const framer = new IpcFramer({ views: false });
      const batches: RecordBatch[] = [];
      for await (const c of split(bytes, cuts)) {
        reused.set(c);
        framer.push(reused.subarray(0, c.byteLength));
        reused.fill(0xa5);
        batches.push(...framer.take());
      }
      expect(batches.map((b) => b.numRows)).toEqual([400, 600, 0]);
      expect(batches[1]!.metadata.get('k')).toBe('v');
      expect(batches[2]!.metadata.get('cursor')).toBe('abc');
      expect(new ArrowTable(batches.slice(0, 2)).toArray().map((r) => r.toJSON())).toEqual(expected);
      const end = framer.end();
      expect(end.schema.fields.map((f) => f.name)).toEqual(['depth', 'name']);
      expect(end.trailer).toBe(trailer);
    }), { numRuns: 80 });
  });

  it('a body inside one chunk is read in place; the same stream cut inside that body is copied', async () => {
    const whole = new Uint8Array(stream());
    const inPlace = await readAll([whole]);
    expect((inPlace.batches[1]!.getChild('depth')!.data[0]!.values as Float64Array).buffer).toBe(whole.buffer);
    const halves = [new Uint8Array(whole.subarray(0, 3000)), new Uint8Array(whole.subarray(3000))];
    const copied = await readAll(halves);
    const values = copied.batches[0]!.getChild('depth')!.data[0]!.values as Float64Array;
    expect(halves.some((h) => h.buffer === values.buffer)).toBe(false);
    expect(copied.batches[0]!.getChild('depth')!.toArray()).toEqual(table.getChild('depth')!.toArray().slice(0, 400));
  });

  it('column buffers are 8-byte aligned views of one copy per message', async () => {
    const bytes = stream();
    const { batches } = await readAll(split(bytes, [3, 101, 333, 1001, 5000]));
    const values = batches[1]!.getChild('depth')!.data[0]!.values as Float64Array;
    expect(values.byteOffset % 8).toBe(0);
    expect(values[0]).toBe(400 / 3);
  });

  it('reads dictionary-encoded columns from a Node stream in flowing mode', async () => {
    const dict = new ArrowTable({ code: vectorFromArray(['a', 'b', 'a', 'c'], new Dictionary(new Utf8(), new Int32())), v: vectorFromArray([1, 2, 3, 4], new Float64()) });
    const bytes = RecordBatchStreamWriter.writeAll(dict.batches).toUint8Array(true);
    const body = new PassThrough();
    for (let i = 0; i < bytes.byteLength; i += 5) body.write(bytes.subarray(i, i + 5));
    body.end();
    const { batches } = await readAll(body);
    expect(new ArrowTable(batches).getChild('code')!.toArray()).toEqual(['a', 'b', 'a', 'c']);
  });

  it('a stream cut inside a message, or no stream at all, is Corrupt', async () => {
    const bytes = stream();
    await expect(readAll(split(bytes.subarray(0, bytes.byteLength - 100), []))).rejects.toMatchObject({ code: 'Corrupt' });
    await expect(readAll(split(Buffer.from('not arrow at all'), []))).rejects.toMatchObject({ code: 'Corrupt' });
  });

  it('stopping early destroys the Node stream', async () => {
    const body = new PassThrough();
    body.write(stream());
    const it = readIpcStream(body);
    expect((await it.next()).value).toBeInstanceOf(RecordBatch);
    await it.return(undefined as never);
    expect(body.destroyed).toBe(true);
  });

  it('with release drain, a failed read drains the rest of a Node stream up to maxBytes, then destroys it', async () => {
    const whole = Buffer.from(stream());
    const schemaMessage = whole.subarray(0, 8 + whole.readInt32LE(4));
    const bad = Buffer.concat([schemaMessage, schemaMessage]); // a second schema: Corrupt
    const body = new PassThrough();
    body.write(bad);
    await expect(readAll(body, { maxBytes: bad.byteLength + 1000, release: 'drain' })).rejects.toMatchObject({ code: 'Corrupt' });
    expect(body.destroyed).toBe(false);
    body.write(Buffer.alloc(500));
    await new Promise((r) => setImmediate(r));
    expect(body.destroyed).toBe(false);
    body.write(Buffer.alloc(600));
    await new Promise((r) => setImmediate(r));
    expect(body.destroyed).toBe(true);
  });
});
