// Ingest modes and matching through the public entry: append / truncate / drop as one commit each,
// columns matched by ingest_name then name, and every failure leaving the table exactly as it was.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Field, Float64, Int64, Schema, Utf8 } from 'apache-arrow';
import { afterEach, describe, expect, it } from 'vitest';
import { type Store, type Table, isHaloclineError, openStore } from '../index.js';
import { tempDir } from '../test-util/tmp.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function fresh(): Promise<{ store: Store; path: string }> {
  const dir = await tempDir();
  const store = await openStore({ path: dir.path, workers: 0, partitionRows: 64 });
  cleanups.push(dir.remove, () => store.close());
  return { store, path: dir.path };
}

const text = (s: string) => new TextEncoder().encode(s);
const csvOf = (from: number, n: number) => `id,depth\n${Array.from({ length: n }, (_, i) => `${from + i},${(from + i) / 2}`).join('\n')}\n`;
const partFiles = async (path: string) => (await readdir(join(path, 'parts'), { recursive: true })).filter((f) => f.endsWith('.hlp')).sort();

async function upload(t: Table, name: string, csv: string): Promise<string> {
  return t.raw.upload(name, text(csv));
}

describe('ingest modes', () => {
  it('append adds rows, truncate replaces them, drop recreates the table from the file', async () => {
    const { store } = await fresh();
    const t = store.table('obs');
    await t.raw.ingest(await upload(t, 'a.csv', csvOf(0, 100)));
    await t.raw.ingest(await upload(t, 'b.csv', csvOf(100, 50)), { opt: 'append' });
    expect(await t.select().count()).toBe(150);
    await t.raw.ingest(await upload(t, 'c.csv', csvOf(1000, 30)), { opt: 'truncate' });
    expect((await t.select().all()).map((r) => r.id)).toEqual(Array.from({ length: 30 }, (_, i) => BigInt(1000 + i)));
    const recreated = await t.raw.ingest(await upload(t, 'd.csv', 'name,v\nx,1.5\ny,2\n'), { opt: 'drop' });
    expect(recreated.created).toBe(true);
    expect((await t.schema())!.fields.map((f) => f.name)).toEqual(['name', 'v']);
    expect(await t.select().all()).toEqual([
      { name: 'x', v: 1.5 },
      { name: 'y', v: 2 },
    ]);
  });

  it('matches file columns by ingest_name before name (as after a rename) and fills missing nullable columns', async () => {
    const { store } = await fresh();
    const t = store.table('obs');
    await t.create(
      new Schema([
        new Field('identifier', new Int64(), false, new Map([['ingest_name', 'id']])),
        new Field('depth_m', new Float64(), true, new Map([['ingest_name', 'depth']])),
        new Field('note', new Utf8(), true),
      ]),
    );
    await t.raw.ingest(await upload(t, 'a.csv', csvOf(0, 3)));
    expect(await t.select().all()).toEqual([
      { identifier: 0n, depth_m: 0, note: null },
      { identifier: 1n, depth_m: 0.5, note: null },
      { identifier: 2n, depth_m: 1, note: null },
    ]);
  });

  describe('every failure leaves the table as it was', () => {
    const failures: Array<[string, string, RegExp]> = [
      ['a column the schema lacks', 'id,depth,extra\n1,2,3\n', /column "extra".*no column/],
      ['a value that does not convert', `${csvOf(500, 200).trimEnd()}\nseven,1\n`, /row 200, column "id"/],
      ['a missing non-nullable column', 'depth\n1\n', /column "id".*lacks this non-nullable column/],
      ['a row with too many fields', 'id,depth\n1,2\n3,4,5\n', /row 1: 3 fields/],
    ];
    for (const opt of ['append', 'truncate'] as const) {
      it.each(failures)(`${opt}: %s`, async (_what, csv, message) => {
        const { store, path } = await fresh();
        const t = store.table('obs');
        await t.create(new Schema([new Field('id', new Int64(), false), new Field('depth', new Float64(), true)]));
        await t.raw.ingest(await upload(t, 'a.csv', csvOf(0, 150)));
        const before = { rows: await t.select().all(), schema: String(await t.schema()), files: await partFiles(path) };
        const e = await t.raw.ingest(await upload(t, 'bad.csv', csv), { opt }).catch((x: unknown) => x);
        expect(isHaloclineError(e, 'InvalidData')).toBe(true);
        expect((e as Error).message).toMatch(/file "bad\.csv"/);
        expect((e as Error).message).toMatch(message);
        expect(await t.select().all()).toEqual(before.rows);
        expect(String(await t.schema())).toBe(before.schema);
        expect(await partFiles(path)).toEqual(before.files);
      });
    }

    it('drop: a file that cannot become a table keeps the old table, its rows and its files', async () => {
      const { store, path } = await fresh();
      const t = store.table('obs');
      await t.raw.ingest(await upload(t, 'a.csv', csvOf(0, 150)));
      const before = { rows: await t.select().all(), schema: String(await t.schema()), files: await partFiles(path) };
      for (const csv of ['a,a\n1,2\n', `x,y\n${'1,2\n'.repeat(300)}3\n`]) {
        const e = await t.raw.ingest(await upload(t, 'bad.csv', csv), { opt: 'drop' }).catch((x: unknown) => x);
        expect(isHaloclineError(e, 'InvalidData')).toBe(true);
        expect(await t.select().all()).toEqual(before.rows);
        expect(String(await t.schema())).toBe(before.schema);
        expect(await partFiles(path)).toEqual(before.files);
      }
    });

    it('create: a failed ingest into a table that does not exist leaves no table and no files', async () => {
      const { store, path } = await fresh();
      const t = store.table('new');
      const e = await t.raw.ingest(await upload(t, 'bad.csv', `${csvOf(0, 300).trimEnd()}\n1,2,3\n`)).catch((x: unknown) => x);
      expect(isHaloclineError(e, 'InvalidData')).toBe(true);
      expect(await t.schema()).toBeUndefined();
      expect(store.tables()).toEqual([]);
      await store.close();
      expect(await partFiles(path).catch(() => [])).toEqual([]);
    });
  });

  it('rejects an unknown mode', async () => {
    const { store } = await fresh();
    const t = store.table('obs');
    const id = await upload(t, 'a.csv', csvOf(0, 3));
    await expect(t.raw.ingest(id, { opt: 'merge' as 'append' })).rejects.toMatchObject({ code: 'InvalidArgument' });
  });
});
