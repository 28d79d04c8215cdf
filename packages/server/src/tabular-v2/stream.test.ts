// Unit tests of the v2 streaming pieces: error markers after the first byte, cursors parked in leases, body parsing.
import { Field, Int32, RecordBatch, RecordBatchReader, Schema, makeData, Struct } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { isSchemaFetch } from './body.js';
import { Leases } from './leases.js';
import { coalesce, ipcSelect, pin, type Pinned } from './stream.js';

const schema = new Schema([new Field('id', new Int32(), false)]);
const batch = (ids: number[]) => new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length: ids.length, nullCount: 0, children: [makeData({ type: new Int32(), length: ids.length, nullCount: 0, data: Int32Array.from(ids) })] }));

async function collect(gen: AsyncGenerator<Buffer>): Promise<{ batches: RecordBatch[]; trailer: { cursor: string | null } }> {
  const chunks: Buffer[] = [];
  for await (const c of gen) chunks.push(c);
  const trailer = JSON.parse(chunks.pop()!.toString('utf8'));
  const reader = RecordBatchReader.from(Buffer.concat(chunks));
  return { batches: [...reader], trailer };
}

describe('ipcSelect', () => {
  it('reports an error after streaming began as a zero-row batch with metadata error and error_code', async () => {
    async function* failing() {
      yield batch([1, 2]);
      throw Object.assign(new Error('disk on fire'), { code: 'Corrupt' });
    }
    const out = await collect(ipcSelect(await pin(schema, failing()), Number.POSITIVE_INFINITY, () => 'x'));
    expect(out.batches.map((b) => b.numRows)).toEqual([2, 0]);
    expect(Object.fromEntries(out.batches[1]!.metadata)).toEqual({ error: 'disk on fire', error_code: 'Corrupt' });
    expect(out.trailer.cursor).toBeNull();
  });

  it('parks the rest at the deadline and resumes exactly after the last batch sent', async () => {
    async function* three() {
      yield batch([1]);
      yield batch([2]);
      yield batch([3]);
    }
    const parked = new Map<string, Pinned>();
    const park = (p: Pinned) => (parked.set('c1', p), 'c1');
    const first = await collect(ipcSelect(await pin(schema, three()), 0, park));
    expect(first.batches.map((b) => b.numRows)).toEqual([1, 0]);
    expect(first.batches[1]!.metadata.get('cursor')).toBe('c1');
    expect(first.trailer.cursor).toBe('c1');
    const rest = await collect(ipcSelect(parked.get('c1')!, Number.POSITIVE_INFINITY, park));
    expect(rest.batches.flatMap((b) => [...b.getChild('id')!.toArray()])).toEqual([2, 3]);
    expect(rest.trailer.cursor).toBeNull();
  });

  it('an empty result is the schema and one empty batch', async () => {
    async function* none(): AsyncGenerator<RecordBatch> {}
    const out = await collect(ipcSelect(await pin(schema, none()), 0, () => 'x'));
    expect(out.batches.map((b) => b.numRows)).toEqual([0]);
  });
});

describe('leases', () => {
  it('belong to a table and an account, expire after the idle time, and then say so', async () => {
    const expired: string[] = [];
    const l = new Leases<string>(50, (v) => expired.push(v));
    const id = l.add('tx', 'T', 'alice');
    expect(l.get(id, 'T', 'bob')).toBe('owner');
    expect(l.get(id, 'U', 'alice')).toBe('table');
    expect(l.get(id, 'T', 'alice')).toBe('tx');
    expect(l.get('nope', 'T', 'alice')).toBe('unknown');
    await new Promise((r) => setTimeout(r, 120));
    expect(expired).toEqual(['tx']);
    expect(l.get(id, 'T', 'alice')).toBe('expired');
  });
});

describe('schema fetch query', () => {
  it('recognises the clients\' spellings only', () => {
    for (const q of ['"fetch" == "schema"', " 'fetch'=='schema' ", '"fetch" = "schema"']) expect(isSchemaFetch(q)).toBe(true);
    for (const q of ['fetch == schema', '"fetch" == "schema" and 1==1', undefined]) expect(isSchemaFetch(q)).toBe(false);
  });
});

describe('coalesce', () => {
  it('joins runs of small pieces, keeps large ones as the same views, and never changes the bytes', () => {
    const big = Buffer.alloc(64 << 10, 7);
    const pieces = [Buffer.from([1, 2]), Buffer.from([3]), big, Buffer.from([4]), big, big, Buffer.from([5, 6])];
    const out = coalesce(pieces);
    expect(out.map((b) => b.byteLength)).toEqual([3, 64 << 10, 1, 64 << 10, 64 << 10, 2]);
    expect(out[1]).toBe(big);
    expect(Buffer.concat(out).equals(Buffer.concat(pieces))).toBe(true);
    expect(coalesce([])).toEqual([]);
  });
});
