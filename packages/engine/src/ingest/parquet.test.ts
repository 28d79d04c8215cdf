// Parquet ingest through the public entry: files written by parquet-wasm (every codec, several row
// groups, GeoParquet) and by DuckDB's COPY ... (FORMAT parquet).
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { Binary, Field, Float64, Int8, Int64, RecordBatch, Schema, Struct, Table as ArrowTable, TimestampMicrosecond, Utf8, type Vector, makeData, tableToIPC, vectorFromArray } from 'apache-arrow';
import * as pw from 'parquet-wasm';
import { afterEach, describe, expect, it } from 'vitest';
import wkx from 'wkx';
import { type IngestProgress, type Store, openStore } from '../index.js';
import { tempDir } from '../test-util/tmp.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function fresh(): Promise<{ store: Store; path: string }> {
  const dir = await tempDir();
  const store = await openStore({ path: dir.path, workers: 0, partitionRows: 4096 });
  cleanups.push(dir.remove, () => store.close());
  return { store, path: dir.path };
}

// n rows: id int32, depth float64 (every 7th null), name utf8, written with `codec`, 1000-row groups
function parquetOf(n: number, codec: pw.Compression, kv?: Map<string, string>, extra?: Record<string, Vector>): Uint8Array {
  const columns = {
    id: vectorFromArray(Int32Array.from({ length: n }, (_, i) => i)),
    depth: vectorFromArray(Array.from({ length: n }, (_, i) => (i % 7 === 0 ? null : i / 4)), new Float64()),
    name: vectorFromArray(Array.from({ length: n }, (_, i) => `P${i % 13}`), new Utf8()),
    ...extra,
  };
  const fields = Object.entries(columns).map(([name, v]) => new Field(name, v.type, name !== 'id'));
  const schema = new Schema(fields);
  const data = makeData({ type: new Struct(fields), length: n, nullCount: 0, children: Object.values(columns).map((v) => v.data[0]!) });
  const table = new ArrowTable([new RecordBatch(schema, data)]);
  let props = new pw.WriterPropertiesBuilder().setCompression(codec).setMaxRowGroupSize(1000);
  if (kv) props = props.setKeyValueMetadata(kv);
  return pw.writeParquet(pw.Table.fromIPCStream(tableToIPC(table, 'stream')), props.build());
}

const codecs: Array<[string, pw.Compression]> = [
  ['uncompressed', pw.Compression.UNCOMPRESSED],
  ['snappy', pw.Compression.SNAPPY],
  ['gzip', pw.Compression.GZIP],
  ['zstd', pw.Compression.ZSTD],
  ['brotli', pw.Compression.BROTLI],
  ['lz4_raw', pw.Compression.LZ4_RAW],
];

describe('Parquet ingest', () => {
  it.each(codecs)('creates a table from a %s file, row group by row group, keeping the types', async (_name, codec) => {
    const { store } = await fresh();
    const t = store.table('obs');
    const progress: IngestProgress[] = [];
    const id = await t.raw.upload('obs.parquet', parquetOf(5500, codec));
    const result = await t.raw.ingest(id, { onProgress: (p) => progress.push(p) });
    expect(result).toMatchObject({ rows: 5500, format: 'parquet', created: true });
    const schema = (await t.schema())!;
    expect(schema.fields.map((f) => `${f.name}:${String(f.type)}:${f.nullable}:${f.metadata.get('ingest_name')}`)).toEqual([
      'id:Int32:false:id',
      'depth:Float64:true:depth',
      'name:Utf8:true:name',
    ]);
    const rows = await t.select().all();
    expect(rows).toHaveLength(5500);
    expect(rows[4321]).toEqual({ id: 4321, depth: 4321 / 4, name: `P${4321 % 13}` });
    expect(rows[7]).toEqual({ id: 7, depth: null, name: 'P7' });
    // one report per row group at least, rows and bytes growing to the end
    expect(progress.length).toBeGreaterThanOrEqual(6);
    expect(progress.at(-1)).toMatchObject({ rows: 5500 });
    expect(progress.at(-1)!.totalBytes).toBe((await t.raw.list())[0]!.size);
    expect(progress.every((p, i) => i === 0 || p.bytes >= progress[i - 1]!.bytes)).toBe(true);
  });

  it('ingests a file DuckDB wrote with COPY ... (FORMAT parquet), timestamps and bigints included', async () => {
    const { store, path } = await fresh();
    const file = join(path, 'duck.parquet');
    const duck = await DuckDBInstance.create(':memory:');
    const conn = await duck.connect();
    await conn.run(
      `COPY (SELECT i::BIGINT AS id, TIMESTAMP '2024-01-01' + INTERVAL (i) SECOND AS time, (i * 0.5)::DOUBLE AS depth, 'ship-' || (i % 5) AS platform
        FROM range(20000) t(i)) TO '${file}' (FORMAT parquet, ROW_GROUP_SIZE 4096)`,
    );
    conn.closeSync();
    const t = store.table('duck');
    await t.raw.ingest(await t.raw.upload('duck.parquet', await readFile(file)));
    const schema = (await t.schema())!;
    expect(schema.fields.map((f) => `${f.name}:${String(f.type)}`)).toEqual([
      'id:Int64',
      `time:${String(new TimestampMicrosecond())}`,
      'depth:Float64',
      'platform:Utf8',
    ]);
    expect(await t.select().count()).toBe(20000);
    expect(await t.select('id == 12345').all()).toEqual([
      { id: 12345n, time: new Date(Date.UTC(2024, 0, 1) + 12345_000), depth: 6172.5, platform: 'ship-0' },
    ]);
  });

  it('appends into an existing table with other types (int32 → int64), matching by name', async () => {
    const { store } = await fresh();
    const t = store.table('obs');
    await t.create(new Schema([new Field('id', new Int64(), false), new Field('depth', new Float64(), true), new Field('name', new Utf8(), true)]));
    await t.raw.ingest(await t.raw.upload('a.parquet', parquetOf(1500, pw.Compression.SNAPPY)));
    expect(await t.select('id == 1499').all()).toEqual([{ id: 1499n, depth: 1499 / 4, name: `P${1499 % 13}` }]);
  });

  it('makes the columns named in GeoParquet `geo` metadata geometry columns', async () => {
    const { store } = await fresh();
    const wkb = Array.from({ length: 10 }, (_, i) => new Uint8Array(wkx.Geometry.parse(`POINT(${i} ${-i})`).toWkb()));
    const geo = JSON.stringify({ version: '1.0.0', primary_column: 'geom', columns: { geom: { encoding: 'WKB', geometry_types: ['Point'] } } });
    const bytes = parquetOf(10, pw.Compression.ZSTD, new Map([['geo', geo]]), { geom: vectorFromArray(wkb, new Binary()) });
    const t = store.table('geo');
    await t.raw.ingest(await t.raw.upload('geo.parquet', bytes));
    const geom = (await t.schema())!.fields.find((f) => f.name === 'geom')!;
    expect(String(geom.type)).toBe('Binary');
    expect(geom.metadata.get('class')).toBe('geometry');
    const [row] = await t.select('id == 3').all();
    expect(wkx.Geometry.parse(Buffer.from(row!.geom as Uint8Array)).toWkt()).toBe('POINT(3 -3)');
  });

  it('fails on a value that does not convert (the file row and column named) and leaves the table as it was', async () => {
    const { store } = await fresh();
    const t = store.table('obs');
    await t.create(new Schema([new Field('id', new Int64(), false), new Field('depth', new Int64(), true), new Field('name', new Utf8(), true)]));
    await t.insert([{ id: 1n, depth: 2n, name: 'kept' }]);
    const e = await t.raw.ingest(await t.raw.upload('a.parquet', parquetOf(3000, pw.Compression.SNAPPY)), { opt: 'truncate' }).catch((x: unknown) => x);
    expect(e).toMatchObject({ code: 'InvalidData', column: 'depth', row: 1 });
    expect((e as Error).message).toMatch(/file "a\.parquet"/);
    expect(await t.select().all()).toEqual([{ id: 1n, depth: 2n, name: 'kept' }]);
  });

  it('names the file row of a bad value in a later row group', async () => {
    const { store } = await fresh();
    const t = store.table('obs');
    await t.create(new Schema([new Field('id', new Int64(), false), new Field('depth', new Float64(), true), new Field('name', new Utf8(), true), new Field('level', new Int8(), true)]));
    // row groups of 1000 rows: the one bad value sits in the third group
    const level = vectorFromArray(Int32Array.from({ length: 3000 }, (_, i) => (i === 2500 ? 300 : i % 100)));
    const e = await t.raw.ingest(await t.raw.upload('a.parquet', parquetOf(3000, pw.Compression.SNAPPY, undefined, { level }))).catch((x: unknown) => x);
    expect(e).toMatchObject({ code: 'InvalidData', column: 'level', row: 2500 });
    expect(await t.select().count()).toBe(0);
  });

  it('writes partitions as their rows land, and a bad value after that leaves no file and the table as it was', async () => {
    // partitions of 16384 rows: their fixed-width columns are written into the file as row groups land
    const dir = await tempDir();
    const store = await openStore({ path: dir.path, workers: 0, partitionRows: 16384 });
    cleanups.push(dir.remove, () => store.close());
    const t = store.table('obs');
    await t.create(new Schema([new Field('id', new Int64(), false), new Field('depth', new Float64(), true), new Field('name', new Utf8(), true), new Field('level', new Int8(), true)]));
    const level = (bad: number) => ({ level: vectorFromArray(Int32Array.from({ length: 30000 }, (_, i) => (i === bad ? 300 : i % 100))) });
    await t.raw.ingest(await t.raw.upload('good.parquet', parquetOf(30000, pw.Compression.SNAPPY, undefined, level(-1))));
    const rows = await t.select().all();
    expect(rows).toHaveLength(30000);
    expect([rows[0], rows[20001]]).toEqual([
      { id: 0n, depth: null, name: 'P0', level: 0 },
      { id: 20001n, depth: 20001 / 4, name: `P${20001 % 13}`, level: 1 },
    ]);
    const files = async () => (await readdir(join(dir.path, 'parts'), { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => e.name).sort();
    const before = await files();
    // the bad value is in the second partition: the first is complete, the second partly written
    const e = await t.raw.ingest(await t.raw.upload('bad.parquet', parquetOf(30000, pw.Compression.SNAPPY, undefined, level(25000))), { opt: 'truncate' }).catch((x: unknown) => x);
    expect(e).toMatchObject({ code: 'InvalidData', column: 'level', row: 25000 });
    expect(await files()).toEqual(before);
    expect(await t.select().count()).toBe(30000);
  });

  it('rejects a damaged file with InvalidData and leaves nothing behind', async () => {
    const { store } = await fresh();
    const t = store.table('bad');
    const bytes = parquetOf(100, pw.Compression.SNAPPY);
    const cut = bytes.slice(0, 4).length ? new Uint8Array([...bytes.slice(0, 64), ...bytes.slice(-8)]) : bytes;
    const e = await t.raw.ingest(await t.raw.upload('bad.parquet', cut)).catch((x: unknown) => x);
    expect(e).toMatchObject({ code: 'InvalidData' });
    expect(await t.schema()).toBeUndefined();
  });
});
