// CSV ingest of files large enough for the parallel path (blocks parsed in workers): rows in order,
// quoted fields (newlines, CRLF) across block boundaries, the sequential pass after a stray quote,
// errors naming the file row, the whole-file type inference fallback, and progress.
import { Field, Float64, Int64, Schema, Utf8 } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { type IngestProgress, isHaloclineError } from '../index.js';
import { freshStore } from '../test-util/store.js';

const text = (s: string) => new TextEncoder().encode(s);

// n data rows of about 27 bytes; `line` may rewrite a row
function csvOf(n: number, opts: { eol?: string; line?: (i: number, row: string) => string } = {}): string {
  const eol = opts.eol ?? '\n';
  const rows = Array.from({ length: n }, (_, i) => {
    const row = `${i},${(i * 0.25).toFixed(2)},station-${i % 97},${i % 3 === 0 ? '' : i % 2 === 0}`;
    return opts.line ? opts.line(i, row) : row;
  });
  return `id,depth,station,ok${eol}${rows.join(eol)}${eol}`;
}

const N = 80_000; // over 2 MiB with LF line ends: the parallel path

describe('CSV ingest, parallel blocks', () => {
  it('keeps every row in file order, CRLF and a quoted field half-way included', async () => {
    const t = (await freshStore({ partitionRows: 32768 })).table('obs');
    const csv = csvOf(N, { eol: '\r\n', line: (i, row) => (i === 40_000 ? `${i},1.5,"quoted, ""station""",true` : row) });
    expect(csv.length).toBeGreaterThan(2 << 20);
    const progress: IngestProgress[] = [];
    const result = await t.raw.ingest(await t.raw.upload('obs.csv', text(csv)), { onProgress: (p) => progress.push(p) });
    expect(result).toMatchObject({ rows: N, format: 'csv', created: true });
    expect((await t.schema())!.fields.map((f) => `${f.name}:${String(f.type)}`)).toEqual(['id:Int64', 'depth:Float64', 'station:Utf8', 'ok:Bool']);
    const rows = await t.select().all();
    expect(rows.length).toBe(N);
    expect(rows.every((r, i) => r.id === BigInt(i))).toBe(true);
    expect(rows[40_000]).toEqual({ id: 40_000n, depth: 1.5, station: 'quoted, "station"', ok: true });
    expect(rows[N - 1]).toEqual({ id: BigInt(N - 1), depth: (N - 1) * 0.25, station: `station-${(N - 1) % 97}`, ok: (N - 1) % 3 === 0 ? null : (N - 1) % 2 === 0 });
    expect(rows[10]).toEqual({ id: 10n, depth: 2.5, station: 'station-10', ok: true });
    // progress: rows and bytes only grow, end at the whole file
    expect(progress.at(-1)).toEqual({ rows: N, bytes: csv.length, totalBytes: csv.length });
    expect(progress.every((p, i) => i === 0 || (p.rows > progress[i - 1]!.rows && p.bytes >= progress[i - 1]!.bytes))).toBe(true);
  });

  it('parses quoted files in parallel: quoted commas, quotes, LF and CRLF inside fields, across block boundaries', async () => {
    const t = (await freshStore({ partitionRows: 50_000 })).table('obs');
    const station = (i: number) => (i % 5 === 0 ? `line ${i}\r\nnext, "quoted"` : i % 7 === 0 ? `a\nb${i}` : `s,${i}`);
    const quote = (v: string) => `"${v.replaceAll('"', '""')}"`;
    const csv = csvOf(N, { eol: '\r\n', line: (i, row) => row.replace(`station-${i % 97}`, quote(station(i))) });
    expect(csv.length).toBeGreaterThan(2 << 20);
    const progress: IngestProgress[] = [];
    await t.raw.ingest(await t.raw.upload('q.csv', text(csv)), { onProgress: (p) => progress.push(p) });
    const rows = await t.select().all();
    expect(rows.length).toBe(N);
    expect(rows.every((r, i) => r.id === BigInt(i) && r.station === station(i))).toBe(true);
    // blocks of about 1 MiB (tens of thousands of rows) came from the workers, not 8,192-row chunks
    expect(Math.max(...progress.map((p, i) => p.rows - (progress[i - 1]?.rows ?? 0)))).toBeGreaterThan(8192);
  });

  it('parses the rest sequentially from a block where a stray quote misleads the cut, with the same rows', async () => {
    const t = (await freshStore()).table('obs');
    // a quote inside an unquoted field is a literal character; quoted fields with newlines follow it
    const csv = csvOf(N, { line: (i, row) => (i === 30_000 ? `${i},1.5,12" pipe,true` : i > 30_000 && i % 3 === 1 ? `${i},1.5,"x\ny ${i}",true` : row) });
    expect(csv.length).toBeGreaterThan(2 << 20);
    await t.raw.ingest(await t.raw.upload('stray.csv', text(csv)));
    const rows = await t.select().all();
    expect(rows.length).toBe(N);
    expect(rows.every((r, i) => r.id === BigInt(i))).toBe(true);
    expect(rows[30_000]!.station).toBe('12" pipe');
    expect(rows[30_001]!.station).toBe('x\ny 30001');
  });

  it('names the file row of a bad value found by a worker, of a record of the wrong width, of an unterminated quote', async () => {
    const t = (await freshStore()).table('obs');
    await t.create(new Schema([new Field('id', new Int64(), false), new Field('depth', new Float64(), true), new Field('station', new Utf8(), true), new Field('ok', new Utf8(), true)]));
    const bad = csvOf(N, { line: (i, row) => (i === 61_234 ? `${i},deep,x,true` : row) });
    expect(bad.length).toBeGreaterThan(2 << 20);
    const e = await t.raw.ingest(await t.raw.upload('bad.csv', text(bad))).catch((x: unknown) => x);
    expect(isHaloclineError(e, 'InvalidData')).toBe(true);
    expect(e).toMatchObject({ row: 61_234, column: 'depth', value: 'deep' });
    // the same in a quoted file with multi-line fields (parsed in workers too)
    const quoted = csvOf(N, { line: (i, row) => (i === 61_234 ? `${i},deep,"x\ny",true` : i % 4 === 0 ? `${i},1,"a\r\nb",true` : row) });
    const eq = await t.raw.ingest(await t.raw.upload('bad-quoted.csv', text(quoted))).catch((x: unknown) => x);
    expect(eq).toMatchObject({ code: 'InvalidData', row: 61_234, column: 'depth', value: 'deep' });
    const wide = csvOf(N, { line: (i, row) => (i === 50_001 ? `${row},extra` : row) });
    const w = await t.raw.ingest(await t.raw.upload('wide.csv', text(wide))).catch((x: unknown) => x);
    expect(w).toMatchObject({ code: 'InvalidData', row: 50_001 });
    expect((w as Error).message).toMatch(/row 50001: 5 fields, but the header has 4/);
    // an unterminated quote sends the rest to the sequential pass; its records still count from the file's start
    const open = csvOf(N, { line: (i, row) => (i === 45_000 ? `${i},1.5,"open,true` : row) });
    const q = await t.raw.ingest(await t.raw.upload('open.csv', text(open))).catch((x: unknown) => x);
    expect(q).toMatchObject({ code: 'InvalidData', row: 45_000 });
    expect((q as Error).message).toMatch(/record 45001 \(0 is the header\): quoted field unterminated/);
    expect(await t.select().count()).toBe(0);
  });

  it('infers from the first 65,536 rows and infers again over every row when a later value does not fit', async () => {
    const t = (await freshStore()).table('obs');
    const csv = csvOf(N, { line: (i, row) => (i === 69_000 ? `${i},1.5,x,maybe` : i === 68_000 ? `1e3,${row.slice(row.indexOf(',') + 1)}` : row) });
    await t.raw.ingest(await t.raw.upload('obs.csv', text(csv)));
    expect((await t.schema())!.fields.map((f) => String(f.type))).toEqual(['Float64', 'Float64', 'Utf8', 'Utf8']);
    const [r] = await t.select('depth == 1.5 and ok == "maybe"').all();
    expect(r).toEqual({ id: 69_000, depth: 1.5, station: 'x', ok: 'maybe' });
    expect(await t.select('id == 1000').count()).toBe(2);
  });
});
