// alter, stats and truncate through the public API.
import { Bool, Field, Float32, Float64, Int32, Int64, Schema, TimestampMicrosecond, Utf8 } from 'apache-arrow';
import { afterEach, describe, expect, it } from 'vitest';
import { type Store, isHaloclineError, openStore } from './index.js';
import { rejected } from './test-util/errors.js';
import { tempDir } from './test-util/tmp.js';

const md = (entries: Record<string, string>) => new Map(Object.entries(entries));
const schema = new Schema([
  new Field('id', new Int32(), false),
  new Field('depth', new Float64(), true, md({ unit: 'm' })),
  new Field('platform', new Utf8(), true),
]);
const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ id: i, depth: i % 4 === 0 ? null : i * 1.5, platform: `P${i % 3}` }));

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function table(n = 50): Promise<{ store: Store; t: ReturnType<Store['table']> }> {
  const dir = await tempDir();
  const store = await openStore({ path: dir.path, workers: 0, partitionRows: 20 });
  cleanups.push(dir.remove, () => store.close());
  const t = store.table('ctd');
  await t.create(schema);
  await t.insert(rows(n));
  return { store, t };
}

describe('alter', () => {
  it('renames through prev_name, changes a type, adds a nullable column, keeps row order', async () => {
    const { t } = await table();
    await t.alter(
      new Schema([
        new Field('id', new Int64(), false),
        new Field('depth_m', new Float32(), true, md({ prev_name: 'depth', unit: 'm', index: 'true' })),
        new Field('platform', new Utf8(), true),
        new Field('note', new Utf8(), true),
      ]),
    );
    const s = (await t.schema())!;
    expect(s.fields.map((f) => f.name)).toEqual(['id', 'depth_m', 'platform', 'note']);
    expect(Object.fromEntries(s.fields[1]!.metadata)).toEqual({ unit: 'm', index: 'true', ingest_name: 'depth' });
    const got = await t.select('depth_m > 30').all();
    const want = rows(50).filter((r) => r.depth !== null && r.depth > 30);
    expect(got).toEqual(want.map((r) => ({ id: BigInt(r.id), depth_m: Math.fround(r.depth!), platform: r.platform, note: null })));
    await t.insert({ id: 99n, depth_m: 1, platform: 'X', note: 'new' });
    expect(await t.select().count()).toBe(51);
  });

  it('leaves the table exactly as it was when a value does not convert, naming row and column', async () => {
    const { t } = await table();
    await t.insert({ id: 50, depth: 1e300, platform: 'big' });
    const before = await t.select().all();
    const e = await rejected('InvalidData', t.alter(new Schema([new Field('id', new Int32(), false), new Field('depth', new Float32(), true), new Field('platform', new Utf8(), true)])));
    expect(e.column).toBe('depth');
    expect(e.row).toBe(50);
    expect(await t.select().all()).toEqual(before);
    expect(String((await t.schema())!.fields[1]!.type)).toBe('Float64');
  });

  it('parses text columns into numbers, booleans and timestamps and formats them back, as an ingested CSV needs', async () => {
    const dir = await tempDir();
    const store = await openStore({ path: dir.path, workers: 0, partitionRows: 2 });
    cleanups.push(dir.remove, () => store.close());
    const t = store.table('csv');
    const text = (...names: string[]) => names.map((n) => new Field(n, new Utf8(), true));
    await t.create(new Schema(text('n', 'f', 'b', 'time')));
    const rows = [
      { n: '1', f: '1.5', b: 'true', time: '2020-01-01T00:00:00.123456Z' },
      { n: ' -2 ', f: 'NaN', b: 'FALSE', time: '2020-01-02' },
      { n: null, f: null, b: null, time: null },
      { n: '9223372036854775807', f: '-inf', b: 'True', time: '1969-12-31T23:59:59.999999Z' },
    ];
    await t.insert(rows);
    const typed = new Schema([
      new Field('n', new Int64(), true),
      new Field('f', new Float64(), true),
      new Field('b', new Bool(), true),
      new Field('time', new TimestampMicrosecond(), true),
    ]);
    await t.alter(typed);
    expect(await t.select('time >= $t', { vars: { t: '2020-01-01T00:00:00.123456Z' } }).count()).toBe(2);
    expect((await t.select(undefined, { cols: ['n', 'f', 'b'] }).all()).map((r) => [r.n, r.f, r.b])).toEqual([
      [1n, 1.5, true],
      [-2n, Number.NaN, false],
      [null, null, null],
      [2n ** 63n - 1n, -Infinity, true],
    ]);
    await t.alter(new Schema(text('n', 'f', 'b', 'time')));
    expect(await t.select().all()).toEqual([
      { n: '1', f: '1.5', b: 'true', time: '2020-01-01T00:00:00.123456Z' },
      { n: '-2', f: 'NaN', b: 'false', time: '2020-01-02T00:00:00.000000Z' },
      { n: null, f: null, b: null, time: null },
      { n: '9223372036854775807', f: '-Infinity', b: 'true', time: '1969-12-31T23:59:59.999999Z' },
    ]);
    // and back again: the strings it made parse to the same values
    await t.alter(typed);
    expect(await t.select('time < $t', { vars: { t: '1970-01-01' } }).count()).toBe(1);
    // a string that does not parse fails the alter at its row, changing nothing
    await t.alter(new Schema(text('n', 'f', 'b', 'time')));
    await t.insert({ n: '1.5', f: '2', b: 'false', time: '2020-01-01' });
    const before = await t.select().all();
    const e = await rejected('InvalidData', t.alter(typed));
    expect(e).toMatchObject({ row: 4, column: 'n', message: 'row 4, column "n": string "1.5" is not an integer (int64)' });
    expect(await t.select().all()).toEqual(before);
    expect(String((await t.schema())!.fields[0]!.type)).toBe('Utf8');
  });

  it('adds a non-nullable column to a table without rows, and refuses it while rows exist', async () => {
    const { t } = await table(3);
    const added = new Schema([...schema.fields, new Field('cruise', new Utf8(), false)]);
    expect((await rejected('InvalidSchema', t.alter(added))).column).toBe('cruise');
    await t.transaction(async (tx) => void (await tx.delete('id >= 0')));
    await t.alter(added);
    await rejected('InvalidData', t.insert({ id: 1 }));
    await t.insert({ id: 1, cruise: 'C1' });
    expect(await t.select().all()).toEqual([{ id: 1, depth: null, platform: null, cruise: 'C1' }]);
  });

  it('rejects impossible mappings', async () => {
    const { t } = await table(5);
    await rejected('InvalidSchema', t.alter(new Schema([new Field('x', new Int32(), true, md({ prev_name: 'nope' }))])));
    await rejected('InvalidSchema', t.alter(new Schema([new Field('id', new Int32(), false), new Field('added', new Int32(), false)])));
    await rejected('InvalidSchema', t.alter(new Schema([new Field('a', new Int32(), true, md({ prev_name: 'id' })), new Field('b', new Int32(), true, md({ prev_name: 'id' }))])));
    await rejected('NotFound', (await table(0)).store.table('missing').alter(schema));
    expect(await t.select().count()).toBe(5);
  });
});

describe('stats and truncate', () => {
  it('reports rows, size and per-column ranges from the zone maps', async () => {
    const { t } = await table();
    const s = await t.stats();
    expect(s.num_rows).toBe(50);
    expect(s.size).toBeGreaterThan(0);
    expect(s.columns.map((c) => [c.name, c.type, c.null_count, c.num_values, c.min, c.max])).toEqual([
      ['id', 'int32', 0, 50, 0, 49],
      ['depth', 'float64', 13, 37, 1.5, 73.5],
      ['platform', 'utf8', 0, 50, 'P0', 'P2'],
    ]);
    expect(s.columns[1]!.metadata).toEqual({ unit: 'm' });
  });

  it('leaves partitions whose rows are all deleted out of min and max, and gives no range without values', async () => {
    const dir = await tempDir();
    // no merges: each insert stays a partition of its own
    const store = await openStore({ path: dir.path, workers: 0, compactRun: 1000 });
    cleanups.push(dir.remove, () => store.close());
    const t = store.table('ctd');
    await t.create(schema);
    for (const from of [0, 10, 20]) await t.insert(rows(from + 10).slice(from));
    await t.transaction(async (tx) => void (await tx.delete('id < 10 or id >= 20')));
    const s = await t.stats();
    expect(s.num_rows).toBe(10);
    expect(s.columns.map((c) => [c.name, c.num_values, c.min, c.max])).toEqual([
      ['id', 10, 10, 19],
      ['depth', 8, 15, 28.5],
      ['platform', 10, 'P0', 'P2'],
    ]);
    await t.transaction(async (tx) => void (await tx.delete('id >= 0')));
    expect((await t.stats()).columns.map((c) => [c.num_values, c.min, c.max])).toEqual([
      [0, null, null],
      [0, null, null],
      [0, null, null],
    ]);
  });

  it('truncates every row and keeps the schema', async () => {
    const { t } = await table();
    await t.truncate();
    expect(await t.select().count()).toBe(0);
    expect((await t.stats()).num_rows).toBe(0);
    await t.insert(rows(3));
    expect(await t.select().count()).toBe(3);
  });

  it('alter and truncate do not fail with Conflict when only the background compaction of earlier inserts committed meanwhile', async () => {
    // several rounds: each starts while the compaction the inserts scheduled may be merging
    for (let round = 0; round < 4; round++) {
      const dir = await tempDir();
      const store = await openStore({ path: dir.path, workers: 0 });
      cleanups.push(dir.remove, () => store.close());
      const t = store.table('ctd');
      await t.create(schema);
      for (let k = 0; k < 8; k++) await t.insert(rows(30));
      await t.alter(new Schema([new Field('id', new Int64(), false), ...schema.fields.slice(1)]));
      expect(await t.select().count()).toBe(240);
      for (let k = 0; k < 8; k++) await t.insert(rows(30).map((r) => ({ ...r, id: BigInt(r.id) })));
      await t.truncate();
      expect(await t.select().count()).toBe(0);
      await store.idle();
      expect(await t.select().count()).toBe(0);
    }
  });

  it('alter takes in an insert committed while it rewrote the table, or the insert fails with Conflict: never both lost', async () => {
    const { t } = await table(200); // 10 partitions to rewrite
    const altered = new Schema([new Field('id', new Int64(), false), ...schema.fields.slice(1)]);
    const alter = t.alter(altered);
    const insert = t.insert({ id: 1000, depth: 1, platform: 'late' }).then(
      () => true,
      (e: unknown) => (isHaloclineError(e, 'Conflict') ? false : Promise.reject(e)),
    );
    await alter;
    const inserted = await insert;
    expect(String((await t.schema())!.fields[0]!.type)).toBe('Int64');
    expect(await t.select('platform == "late"').all()).toEqual(inserted ? [{ id: 1000n, depth: 1, platform: 'late' }] : []);
    expect(await t.select().count()).toBe(inserted ? 201 : 200);
  });

  it('a concurrent alter still fails the other with Conflict: an alter is planned against one schema', async () => {
    const { t } = await table(200);
    const a = t.alter(new Schema([new Field('id', new Int64(), false), ...schema.fields.slice(1)]));
    const b = t.alter(new Schema([...schema.fields, new Field('note', new Utf8(), true)]));
    const [ra, rb] = await Promise.allSettled([a, b]);
    expect([ra.status, rb.status].sort()).toEqual(['fulfilled', 'rejected']);
    const failed = (ra.status === 'rejected' ? ra.reason : (rb as PromiseRejectedResult).reason) as unknown;
    expect(isHaloclineError(failed, 'Conflict')).toBe(true);
  });
});
