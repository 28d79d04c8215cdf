// The engine through its public entry: schema, insert, select modes, persistence, compaction, errors.
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Field, Float64, Int64, RecordBatch, Schema, Table as ArrowTable, TimestampMillisecond, Utf8, tableFromArrays } from 'apache-arrow';
import { open as openLmdb } from 'lmdb';
import { afterEach, describe, expect, it } from 'vitest';
import { type ErrorCode, type Store, openStore } from './index.js';
import { rejected } from './test-util/errors.js';
import { tempDir } from './test-util/tmp.js';
import type { StoreContext } from './context.js';
import { openSnapshot } from './read/snapshot.js';
import { pickRun } from './write/compact.js';

const schema = new Schema([
  new Field('id', new Int64(), false),
  new Field('time', new TimestampMillisecond(), true),
  new Field('depth', new Float64(), true, new Map([['index', 'true'], ['unit', 'm']])),
  new Field('platform', new Utf8(), true),
]);

// without `index` metadata: partitions keep insertion order (indexed tables are re-partitioned by key)
const plain = new Schema(schema.fields.map((f) => (f.name === 'depth' ? new Field('depth', f.type, true, new Map([['unit', 'm']])) : f)));

const rowsOf = (n: number, from = 0) =>
  Array.from({ length: n }, (_, k) => {
    const i = from + k;
    return { id: BigInt(i), time: new Date(Date.UTC(2024, 0, 1) + i * 1000), depth: i % 10 === 0 ? null : (i * 37) % 6000, platform: `P${i % 5}` };
  });

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function fresh(options: Record<string, number> = {}): Promise<{ store: Store; path: string }> {
  const dir = await tempDir();
  const store = await openStore({ path: dir.path, workers: 0, ...options });
  cleanups.push(dir.remove);
  cleanups.push(() => store.close());
  return { store, path: dir.path };
}

const expectCode = async (p: Promise<unknown> | (() => unknown), code: ErrorCode) => (await rejected(code, p)) as unknown as Record<string, unknown>;

describe('schema', () => {
  it('creates once, reads back with metadata, refuses a second create', async () => {
    const { store } = await fresh();
    const t = store.table('ctd');
    expect(await t.schema()).toBeUndefined();
    await t.create(schema);
    const got = (await t.schema())!;
    expect(got.fields.map((f) => f.name)).toEqual(['id', 'time', 'depth', 'platform']);
    expect(got.fields[2]!.metadata.get('unit')).toBe('m');
    const e = await expectCode(t.create(schema), 'FileAlreadyExists');
    expect(e.table).toBe('ctd');
    expect(store.tables()).toEqual(['ctd']);
  });

  it('rejects an invalid schema and a missing table', async () => {
    const { store } = await fresh();
    await expectCode(store.table('a').create({} as Schema), 'InvalidSchema');
    await expectCode(store.table('a').insert({ id: 1n }), 'NotFound');
    await expectCode(store.table('a').select().all(), 'NotFound');
    await expectCode(store.table('a').drop(), 'NotFound');
    await expectCode(() => store.table(''), 'InvalidArgument');
  });
});

describe('insert and select', () => {
  it('accepts a row, rows, a batch and a table, and reads them back every way', async () => {
    const { store } = await fresh();
    const t = store.table('ctd');
    await t.create(schema);
    const rows = rowsOf(30);
    await t.insert(rows[0]!);
    await t.insert(rows.slice(1, 10));
    const arrow = tableFromArrays({
      id: BigInt64Array.from(rows.slice(10).map((r) => r.id)),
      time: rows.slice(10).map((r) => r.time),
      depth: rows.slice(10).map((r) => r.depth),
      platform: rows.slice(10).map((r) => r.platform),
    });
    const converted = new ArrowTable(schema, arrow.batches.map((b) => new RecordBatch(schema, b.data)));
    await t.insert(converted.batches[0]!.slice(0, 10));
    await t.insert(converted.slice(10));
    const all = await t.select().all();
    expect(all).toEqual(rows);
    expect(await t.select().count()).toBe(30);
    const pages: number[] = [];
    for await (const p of t.select().pages(7)) pages.push(p.length);
    expect(pages).toEqual([7, 7, 7, 7, 2]);
    let chunks = 0;
    for await (const p of t.select().pages(0)) chunks += p.length > 0 ? 1 : 0;
    expect(chunks).toBeGreaterThan(0);
    let frames = 0;
    for await (const f of t.select('depth > 100').dataframes()) frames += f.numRows;
    expect(frames).toBe(rows.filter((r) => r.depth !== null && r.depth > 100).length);
  });

  it('filters with bind variables and projects columns', async () => {
    const { store } = await fresh();
    const t = store.table('ctd');
    await t.create(schema);
    const rows = rowsOf(500);
    await t.insert(rows);
    const expected = rows.filter((r) => r.depth !== null && r.depth > 3000 && r.platform === 'P2');
    const got = await t.select('depth > $d and platform == $p', { vars: { d: 3000, p: 'P2' }, cols: ['platform', 'id'] }).all();
    expect(got).toEqual(expected.map((r) => ({ platform: r.platform, id: r.id })));
    const byTime = await t.select('time >= ?', { vars: [new Date(Date.UTC(2024, 0, 1) + 490_000)] }).count();
    expect(byTime).toBe(10);
    expect(await t.select('depth is null').count()).toBe(50);
    expect(await t.select('1 == 0').count()).toBe(0);
  });

  it('gives query errors with a position, and rejects bad options', async () => {
    const { store } = await fresh();
    const t = store.table('ctd');
    await t.create(schema);
    const e = await expectCode(t.select('depth > ').all(), 'QuerySyntax');
    expect(typeof e.position).toBe('number');
    const u = await expectCode(t.select('dpth > 3').all(), 'QueryType');
    expect(u.column).toBe('dpth');
    await expectCode(t.select(undefined, { cols: ['nope'] }).all(), 'InvalidArgument');
    await expectCode(t.select(5 as unknown as string).all(), 'InvalidArgument');
    await expectCode(t.select().pages(-1).next(), 'InvalidArgument');
    // a misspelt option is refused, not ignored (it would answer every column, or an unfiltered delete's rows)
    const colz = await expectCode(t.select(undefined, { colz: ['depth'] } as never).all(), 'InvalidArgument');
    expect(colz.message).toBe('unknown option "colz"; the options are cols, vars');
    await expectCode(t.select(undefined, null as never).count(), 'InvalidArgument');
    await t.insert(rowsOf(3));
    await expectCode(
      t.transaction((tx) => tx.delete('depth > $d', { vars: { d: 0 }, cols: ['id'] } as never)),
      'InvalidArgument',
    );
    expect(await t.select().count()).toBe(3);
  });

  it('stores nothing of an insert with one bad row', async () => {
    const { store } = await fresh();
    const t = store.table('ctd');
    await t.create(schema);
    await t.insert(rowsOf(5));
    const bad = [...rowsOf(5, 5), { id: 11n, depth: 'deep' }];
    const e = await expectCode(t.insert(bad), 'InvalidData');
    expect(e.row).toBe(5);
    expect(e.column).toBe('depth');
    await expectCode(t.insert({ id: null }), 'InvalidData');
    await expectCode(t.insert({ id: 1n, colour: 'red' }), 'InvalidData');
    expect(await t.select().count()).toBe(5);
  });
});

describe('storage', () => {
  it('persists across close and reopen, cut into partitions', async () => {
    const dir = await tempDir();
    cleanups.push(dir.remove);
    let store = await openStore({ path: dir.path, workers: 0, partitionRows: 1000 });
    await store.table('ctd').create(plain);
    await store.table('ctd').insert(rowsOf(3500));
    await store.close();
    expect((await partFiles(dir.path)).length).toBe(4);
    store = await openStore({ path: dir.path, workers: 0 });
    expect(await store.table('ctd').select().all()).toEqual(rowsOf(3500));
    await store.close();
  });

  it('compacts many small inserts into few partitions, keeping row order', async () => {
    const dir = await tempDir();
    cleanups.push(dir.remove);
    const store = await openStore({ path: dir.path, workers: 0, partitionRows: 1000, compactRun: 4 });
    const t = store.table('ctd');
    await t.create(plain);
    for (let i = 0; i < 40; i++) await t.insert(rowsOf(20, i * 20));
    await store.close(); // waits for background compaction
    const again = await openStore({ path: dir.path, workers: 0, partitionRows: 1000, compactRun: 4 });
    await expectCompacted(again, 'ctd', (await partFiles(dir.path)).length);
    expect(await again.table('ctd').select().all()).toEqual(rowsOf(800));
    await again.close();
  });

  it('idle() waits for background compaction while the store stays open', async () => {
    const dir = await tempDir();
    cleanups.push(dir.remove);
    const store = await openStore({ path: dir.path, workers: 0, partitionRows: 1000, compactRun: 4 });
    const t = store.table('ctd');
    await t.create(plain);
    for (let i = 0; i < 40; i++) await t.insert(rowsOf(20, i * 20));
    await store.idle();
    await expectCompacted(store, 'ctd', (await partFiles(dir.path)).length);
    expect(await t.select().all()).toEqual(rowsOf(800));
    await store.close();
  });

  it('keeps a running cursor on its snapshot while inserts and compaction go on', async () => {
    const { store } = await fresh({ partitionRows: 100, compactRun: 2 });
    const t = store.table('ctd');
    await t.create(schema);
    for (let i = 0; i < 6; i++) await t.insert(rowsOf(10, i * 10));
    const it = t.select().rows()[Symbol.asyncIterator]();
    const first = await it.next();
    for (let i = 6; i < 20; i++) await t.insert(rowsOf(10, i * 10));
    const seen = [first.value];
    for (let r = await it.next(); !r.done; r = await it.next()) seen.push(r.value);
    // exactly the rows of its snapshot; an indexed table returns them in partition order (a merge sorts its leaves by depth)
    expect(seen.sort((a, b) => Number(a.id) - Number(b.id))).toEqual(rowsOf(60));
    expect(await t.select().count()).toBe(200);
  });

  it('streams a table larger than the column cache by reading through it', async () => {
    const { store } = await fresh({ partitionRows: 100, cacheBytes: 1 });
    const t = store.table('ctd');
    await t.create(schema);
    await t.insert(rowsOf(1000));
    expect(await t.select().all()).toEqual(rowsOf(1000));
    const expected = rowsOf(1000).filter((r) => r.depth !== null && r.depth < 500);
    expect(await t.select('depth < 500').all()).toEqual(expected);
    expect(await t.select('depth < 500').count()).toBe(expected.length);
  });

  it('removes files that no partition refers to when opening', async () => {
    const { store, path } = await fresh();
    await store.table('ctd').create(schema);
    await store.table('ctd').insert(rowsOf(10));
    await store.close();
    const [file] = await partFiles(path);
    const orphan = join(path, file!.replace(/[^/]+$/, 'orphan.hlp'));
    await writeFile(orphan, 'half-written');
    await writeFile(`${orphan}.tmp`, 'half-written');
    const { mkdir } = await import('node:fs/promises');
    await mkdir(join(path, 'files'), { recursive: true });
    await writeFile(join(path, 'files', 'cut-upload.tmp'), 'half-uploaded');
    const again = await openStore({ path, workers: 0 });
    expect(await partFiles(path)).toEqual([file]);
    expect(await readdir(join(path, 'files'))).toEqual([]);
    expect(await again.table('ctd').select().count()).toBe(10);
    await again.close();
  });

  it('drops a table with its files', async () => {
    const { store, path } = await fresh();
    const t = store.table('ctd');
    await t.create(schema);
    await t.insert(rowsOf(10));
    await t.drop();
    expect(await t.schema()).toBeUndefined();
    await expectCode(t.select().count(), 'NotFound');
    await t.create(schema);
    expect(await t.select().count()).toBe(0);
    await store.close();
    expect(await partFiles(path)).toEqual([]);
  });

  it('refuses a store or a partition file of another format version', async () => {
    const { store, path } = await fresh();
    await store.table('ctd').create(schema);
    await store.table('ctd').insert(rowsOf(10));
    await store.close();
    const [file] = await partFiles(path);
    const { open } = await import('node:fs/promises');
    const fh = await open(join(path, file!), 'r+');
    await fh.write(new Uint8Array([9, 0, 0, 0]), 0, 4, 8);
    await fh.close();
    const again = await openStore({ path, workers: 0 });
    const e = await expectCode(again.table('ctd').select().all(), 'Corrupt');
    expect(String((e as unknown as Error).message)).toContain('got v9 partition data, expected v2');
    await again.close();
    const db = openLmdb<Buffer, string>({ path: join(path, 'meta'), encoding: 'binary' });
    await db.put('store', Buffer.from(JSON.stringify({ magic: 'halocline', version: 9 })));
    await db.close();
    await expectCode(openStore({ path, workers: 0 }), 'Corrupt');
  });

  it('answers Closed after close', async () => {
    const dir = await tempDir();
    cleanups.push(dir.remove);
    const store = await openStore({ path: dir.path, workers: 0 });
    await store.close();
    await expectCode(store.table('x').schema(), 'Closed');
  });
});

describe('worker pool', () => {
  it('gives the same rows through the pool as inline', async () => {
    const dir = await tempDir();
    cleanups.push(dir.remove);
    const store = await openStore({ path: dir.path, workers: 2, partitionRows: 700, inlineRows: 1 });
    const t = store.table('ctd');
    await t.create(schema);
    const rows = rowsOf(5000);
    await t.insert(rows);
    const expected = rows.filter((r) => r.depth !== null && r.depth > 2000 && r.platform !== 'P1');
    expect(await t.select("depth > 2000 and platform != 'P1'").all()).toEqual(expected);
    expect(await t.select("depth > 2000 and platform != 'P1'").count()).toBe(expected.length);
    await expectCode(t.select('platform > 3').count(), 'QueryType');
    await store.close();
  });
});

/**
 * Compaction of table `name` (opened with partitionRows 1000 and compactRun 4) has run to its end:
 * nothing is left that it would merge, every file is a committed partition, and the 40 deltas of
 * 20 rows are a few partitions. How few depends on how far the merges lagged behind the inserts:
 * size tiers leave up to seven contiguous small partitions of unlike sizes as they are (`pickRun`);
 * 4 when they kept up, 5 to 8 in a simulation of merges lagging at random.
 */
async function expectCompacted(store: Store, name: string, files: number): Promise<void> {
  const ctx = (store as unknown as { ctx: StoreContext }).ctx;
  const snap = openSnapshot(ctx, name);
  try {
    expect(pickRun(snap.parts, 1000, 4)).toEqual([]);
    expect(files).toBe(snap.parts.length);
    expect(files).toBeLessThanOrEqual(10);
  } finally {
    snap.release();
  }
}

async function partFiles(path: string): Promise<string[]> {
  const entries = await readdir(join(path, 'parts'), { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => join('parts', e.parentPath.slice(join(path, 'parts').length + 1), e.name));
}
