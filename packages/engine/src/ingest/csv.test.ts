// CSV ingest through the public entry: RFC 4180 details, type inference, conversion into a schema.
import { Field, Int32, Schema, TimestampMillisecond, Utf8 } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { type IngestProgress, isHaloclineError } from '../index.js';
import { freshStore } from '../test-util/store.js';

const fresh = () => freshStore();

const text = (s: string) => new TextEncoder().encode(s);

describe('CSV ingest', () => {
  it('creates a table with inferred types from quoted fields, embedded newlines, empty fields, BOM and CRLF', async () => {
    const t = (await fresh()).table('casts');
    const csv = '\ufeffid,name,depth,ok,when\r\n1,"Smith, ""J""",12.5,true,2024-01-01T00:00:00Z\r\n2,"two\r\nlines",,FALSE,\r\n-3,,7,,2024-01-02\r\n';
    const id = await t.raw.upload('casts.csv', text(csv));
    const result = await t.raw.ingest(id);
    expect(result).toMatchObject({ rows: 3, format: 'csv', created: true });
    const schema = (await t.schema())!;
    expect(schema.fields.map((f) => `${f.name}:${String(f.type)}:${f.metadata.get('ingest_name')}`)).toEqual([
      'id:Int64:id',
      'name:Utf8:name',
      'depth:Float64:depth',
      'ok:Bool:ok',
      'when:Utf8:when',
    ]);
    expect(await t.select().all()).toEqual([
      { id: 1n, name: 'Smith, "J"', depth: 12.5, ok: true, when: '2024-01-01T00:00:00Z' },
      { id: 2n, name: 'two\r\nlines', depth: null, ok: false, when: null },
      { id: -3n, name: null, depth: 7, ok: null, when: '2024-01-02' },
    ]);
  });

  it('validates geometry into a class: geometry column: a bad WKT or latitude fails naming the file row, table untouched', async () => {
    const t = (await fresh()).table('tracks');
    await t.create(new Schema([new Field('id', new Int32(), false), new Field('where', new Utf8(), true, new Map([['class', 'geometry']]))]));
    await t.insert({ id: 0, where: 'POINT (1 2)' });
    for (const bad of ['POINT (3 100)', 'POINT (3']) {
      const id = await t.raw.upload(`bad-${bad.length}.csv`, text(`id,where\n1,POINT (3 4)\n2,"${bad}"\n`));
      const err = await t.raw.ingest(id).then(() => null, (e: unknown) => e);
      expect(isHaloclineError(err) && err.code).toBe('InvalidData');
      expect(String((err as Error).message)).toMatch(/row 1/);
      expect((err as { column?: string }).column).toBe('where');
    }
    expect(await t.select().all()).toEqual([{ id: 0, where: 'POINT (1 2)' }]);
    await t.raw.ingest(await t.raw.upload('good.csv', text('id,where\n1,POINT (3 4)\n')));
    expect(await t.select().count()).toBe(2);
  });

  it('infers int64 only when every value fits, float64 over ints and floats, string otherwise', async () => {
    const t = (await fresh()).table('t');
    const csv = 'a,b,c,d,e\n9223372036854775807,1,x,1e3,\n9223372036854775808,2.5,1,NaN,\n';
    await t.raw.ingest(await t.raw.upload('t.csv', text(csv)));
    const schema = (await t.schema())!;
    expect(schema.fields.map((f) => String(f.type))).toEqual(['Float64', 'Float64', 'Utf8', 'Float64', 'Utf8']);
  });

  it('parses text into an existing schema (timestamps, int32) and names the file row and column of a bad value', async () => {
    const t = (await fresh()).table('t');
    await t.create(new Schema([new Field('n', new Int32(), false), new Field('at', new TimestampMillisecond(), true), new Field('s', new Utf8(), true)]));
    await t.raw.ingest(await t.raw.upload('ok.csv', text('n,at\n1,2024-05-01T12:00:00Z\n2,\n')));
    expect(await t.select().all()).toEqual([
      { n: 1, at: new Date('2024-05-01T12:00:00Z'), s: null },
      { n: 2, at: null, s: null },
    ]);
    const bad = await t.raw.upload('bad.csv', text('n,at\n3,\n4,\nfive,\n'));
    const e = await t.raw.ingest(bad).catch((x: unknown) => x);
    expect(isHaloclineError(e, 'InvalidData')).toBe(true);
    expect(e).toMatchObject({ row: 2, column: 'n' });
    expect((e as Error).message).toMatch(/file "bad\.csv".*row 2, column "n".*"five"/);
    expect(await t.select().count()).toBe(2);
  });

  it('rejects malformed quoting with InvalidData naming the record, and creates no table', async () => {
    const t = (await fresh()).table('t');
    const e = await t.raw.ingest(await t.raw.upload('q.csv', text('a,b\n1,x\n2,"open\n3,y\n'))).catch((x: unknown) => x);
    expect(isHaloclineError(e, 'InvalidData')).toBe(true);
    expect((e as Error).message).toMatch(/file "q\.csv": record 2 \(0 is the header\): quoted field unterminated/);
    expect(await t.schema()).toBeUndefined();
  });

  it('reports progress per batch (about 8,192 rows), ending at every row and the whole file', async () => {
    const t = (await fresh()).table('t');
    const csv = `n,s\n${Array.from({ length: 40_000 }, (_, i) => `${i},"r${i}"`).join('\n')}\n`;
    const progress: IngestProgress[] = [];
    await t.raw.ingest(await t.raw.upload('p.csv', text(csv)), { onProgress: (p) => progress.push(p) });
    expect(progress.length).toBeGreaterThanOrEqual(4);
    expect(progress.every((p, i) => i === 0 || (p.rows > progress[i - 1]!.rows && p.bytes > progress[i - 1]!.bytes))).toBe(true);
    expect(progress.at(-1)).toEqual({ rows: 40_000, bytes: csv.length, totalBytes: csv.length });
  });
});
