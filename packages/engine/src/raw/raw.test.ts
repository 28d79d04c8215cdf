// Files beside a table through the public entry: upload/download, addressing, metadata, list, delete.
import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { Field, Int64, Schema } from 'apache-arrow';
import { afterEach, describe, expect, it } from 'vitest';
import wkx from 'wkx';
import { type ErrorCode, type Store, isHaloclineError, openStore } from '../index.js';
import { tempDir } from '../test-util/tmp.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function fresh(): Promise<{ store: Store; path: string }> {
  const dir = await tempDir();
  const store = await openStore({ path: dir.path, workers: 0 });
  cleanups.push(dir.remove, () => store.close());
  return { store, path: dir.path };
}

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

async function expectCode(p: Promise<unknown>, code: ErrorCode, message?: RegExp): Promise<void> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(isHaloclineError(e, code), `expected ${code}, got ${String(e)}`).toBe(true);
  if (message) expect((e as Error).message).toMatch(message);
}

const filesIn = async (path: string) => readdir(join(path, 'files')).catch(() => [] as string[]);
const sample = Buffer.from(Array.from({ length: 100_000 }, (_, i) => (i * 7919) % 251));

describe('raw files', () => {
  it('uploads from bytes, a Node stream and a web stream, and downloads them byte for byte', async () => {
    const { store } = await fresh();
    const t = store.table('ctd');
    const ids = [
      await t.raw.upload('a.bin', new Uint8Array(sample)),
      await t.raw.upload('b.bin', Readable.from([sample.subarray(0, 1000), sample.subarray(1000)])),
      await t.raw.upload('c.bin', Readable.toWeb(Readable.from([sample])) as ReadableStream<Uint8Array>),
      await t.raw.upload('empty.bin', new Uint8Array(0)),
    ];
    for (const id of ids.slice(0, 3)) expect((await bytesOf(await t.raw.download(id))).equals(sample)).toBe(true);
    expect((await bytesOf(await t.raw.download('empty.bin'))).length).toBe(0);
    const list = await t.raw.list();
    expect(list.map((e) => [e.name, e.size])).toEqual([
      ['a.bin', 100_000],
      ['b.bin', 100_000],
      ['c.bin', 100_000],
      ['empty.bin', 0],
    ]);
    expect(list[0]!.sha256).toBe(createHash('sha256').update(sample).digest('hex'));
    expect(list[0]).toMatchObject({ mimetype: null, geometry: null, properties: {} });
    expect(list[0]!.created).toBeInstanceOf(Date);
  });

  it('a failed, cut or oversized upload leaves no entry and no file', async () => {
    const { store, path } = await fresh();
    const t = store.table('ctd');
    async function* cut() {
      yield sample.subarray(0, 5000);
      throw new Error('connection reset');
    }
    await expect(t.raw.upload('cut.bin', Readable.from(cut()))).rejects.toThrow('connection reset');
    await expectCode(t.raw.upload('big.bin', Readable.from([sample, sample]), { maxBytes: 150_000 }), 'InvalidArgument', /limit of 150000 bytes/);
    await expectCode(t.raw.upload('/abs.bin', new Uint8Array(1)), 'InvalidArgument', /must not start with "\/"/);
    await expectCode(t.raw.upload('x.bin', 'text' as unknown as Uint8Array), 'InvalidArgument');
    expect(await t.raw.list()).toEqual([]);
    expect(await filesIn(path)).toEqual([]);
  });

  it('addresses a file by id, or by name when the name is unique; ambiguous and unknown say so', async () => {
    const { store } = await fresh();
    const t = store.table('ctd');
    const a = await t.raw.upload('same.csv', new Uint8Array([1]));
    const b = await t.raw.upload('same.csv', new Uint8Array([2, 2]));
    await t.raw.upload('unique.csv', new Uint8Array([3, 3, 3]));
    expect((await bytesOf(await t.raw.download(b))).length).toBe(2);
    expect((await bytesOf(await t.raw.download('unique.csv'))).length).toBe(3);
    await expectCode(t.raw.download('same.csv'), 'InvalidArgument', new RegExp(`2 files .* named "same.csv".*${a}`));
    await expectCode(t.raw.download('nope.csv'), 'NotFound', /no file with id or name "nope.csv"/);
    // files of another table are not visible
    await expectCode(store.table('other').raw.download(a), 'NotFound');
    await t.raw.updateMeta(a, { name: 'first.csv' });
    expect((await bytesOf(await t.raw.download('same.csv'))).length).toBe(2);
  });

  it('validates and applies metadata updates', async () => {
    const { store } = await fresh();
    const t = store.table('ctd');
    const id = await t.raw.upload('cast.csv', new Uint8Array([1, 2, 3]));
    expect((await t.raw.list())[0]!.mimetype).toBe('text/csv');
    const wkb = new Uint8Array(wkx.Geometry.parse('POINT(10 20)').toWkb());
    const entry = await t.raw.updateMeta(id, { geometry: wkb, properties: { cruise: 'M123' }, mimetype: 'Text/Plain' });
    expect(entry).toMatchObject({ geometry: 'POINT(10 20)', properties: { cruise: 'M123' }, mimetype: 'text/plain' });
    expect(entry.updated.getTime()).toBeGreaterThanOrEqual(entry.created.getTime());
    await t.raw.updateMeta('cast.csv', { geometry: 'polygon ((0 0, 1 0, 1 1, 0 0))' });
    expect((await t.raw.list())[0]!.geometry).toBe('POLYGON((0 0,1 0,1 1,0 0))');
    const bad: Array<[Record<string, unknown>, RegExp]> = [
      [{ geometry: 'POINT(1' }, /not valid WKT/],
      [{ geometry: 'POINT(1 2) extra' }, /unexpected text after the geometry/],
      [{ geometry: 'CIRCLE(1 2)' }, /not valid WKT/],
      [{ geometry: new Uint8Array([1, 1, 0, 0]) }, /not valid WKB/],
      [{ geometry: new Uint8Array([...wkb, 0]) }, /1 bytes after the geometry/],
      [{ geometry: 42 }, /WKT text or WKB bytes/],
      [{ properties: { a: 1 } }, /property "a" must be a string/],
      [{ properties: ['x'] }, /plain object/],
      [{ mimetype: 'csv' }, /type\/subtype/],
      [{ name: '' }, /non-empty/],
      [{ size: 3 }, /unknown file metadata "size"/],
    ];
    for (const [patch, message] of bad) await expectCode(t.raw.updateMeta(id, patch), 'InvalidArgument', message);
    expect((await t.raw.list())[0]).toMatchObject({ name: 'cast.csv', properties: { cruise: 'M123' }, mimetype: 'text/plain' });
  });

  it('lists with the select query language', async () => {
    const { store } = await fresh();
    const t = store.table('ctd');
    await t.raw.upload('small.csv', new Uint8Array(10));
    await t.raw.upload('big.parquet', new Uint8Array(5000));
    await t.raw.upload('notes.txt', new Uint8Array(300), { mimetype: 'text/markdown' });
    const names = async (filter: string, vars?: Record<string, unknown> | unknown[]) => (await t.raw.list(filter, { vars })).map((e) => e.name);
    expect(await names('size < $min', { min: 1000 })).toEqual(['small.csv', 'notes.txt']);
    expect(await names('mimetype == "text/csv" or size > ?', [1000])).toEqual(['small.csv', 'big.parquet']);
    expect(await names('geometry is null and name != "notes.txt"')).toEqual(['small.csv', 'big.parquet']);
    expect(await names('created <= $now', { now: new Date(Date.now() + 1000) })).toHaveLength(3);
    expect(await names('1 == 0')).toEqual([]);
    await expectCode(t.raw.list('sise < 3'), 'QueryType', /unknown column 'sise'/);
    await expectCode(t.raw.list('size <'), 'QuerySyntax');
  });

  it('deletes entry and file; files exist before the table, survive drop() and never appear in select', async () => {
    const { store, path } = await fresh();
    const t = store.table('ctd');
    const id = await t.raw.upload('keep.csv', new TextEncoder().encode('id\n1\n2\n'));
    const gone = await t.raw.upload('gone.bin', new Uint8Array(7));
    await t.raw.delete('gone.bin');
    await expectCode(t.raw.download(gone), 'NotFound');
    expect(await filesIn(path)).toHaveLength(1);
    await t.raw.ingest(id);
    expect(await t.select().count()).toBe(2);
    await t.drop();
    expect((await t.raw.list()).map((e) => e.name)).toEqual(['keep.csv']);
    await t.create(new Schema([new Field('id', new Int64(), true)]));
    expect(await t.select().count()).toBe(0);
    await t.raw.ingest('keep.csv');
    expect(await t.select().count()).toBe(2);
  });
});
