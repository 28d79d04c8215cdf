// The parallel CSV path (byte tokenizer and numbers from bytes in the workers) against the sequential
// path (Papa Parse and the text conversions) on the same rows: every value the same, also for the
// forms the byte paths leave to the text (17-digit decimals near rounding boundaries, exponents,
// inf/nan spellings, long integers, invalid UTF-8, escaped quotes), CR-only line ends, and warm
// parsing workers reused across ingests.
import { isDeepStrictEqual } from 'node:util';
import { Bool, Field, Float64, Int64, Schema, TimestampMillisecond, Utf8 } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { freshStore } from '../test-util/store.js';

const SCHEMA = new Schema([
  new Field('id', new Int64(), true),
  new Field('x', new Float64(), true),
  new Field('s', new Utf8(), true),
  new Field('ok', new Bool(), true),
  new Field('t', new TimestampMillisecond(), true),
]);
const HEADER = 'id,x,s,ok,t';
const N = 70_000;

// deterministic pseudo-random rows (bytes: invalid UTF-8 in some string fields)
function rows(): Buffer[] {
  let seed = 12345;
  const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 8) % n;
  const floats = ['inf', '-Infinity', 'NaN', '+5', '.5', '-.25', '1e400', '12345678901234567890', '1.', '0.1e-30', '-0', '', '7E+3'];
  const ints = ['+7', '-0', '9007199254740993', '-9223372036854775808', '', '0012'];
  const strings = ['é海😀', '"q"', 'a,b', 'line\nnext', 'x""y', '', 'plain'];
  return Array.from({ length: N }, (_, i) => {
    const id = rand(10) === 0 ? ints[rand(ints.length)]! : String(i * (rand(2) ? 1 : -1));
    const r = rand(4);
    const x = r === 0 ? floats[rand(floats.length)]! : r === 1 ? ((rand(1e9) / 1e9) * 10 ** (rand(8) - 4)).toPrecision(rand(4) + 15) : `${rand(1e6)}.${rand(1e9)}`;
    const str = strings[rand(strings.length)]!;
    const s = /[",\n]/.test(str) ? `"${str.replaceAll('"', '""')}"` : str;
    const ok = ['true', 'FALSE', ''][rand(3)]!;
    const iso = new Date(1.6e12 + rand(1e9) * 1000 + rand(1000)).toISOString();
    const t = rand(5) === 0 ? '' : rand(2) ? iso : iso.replace('T', ' ');
    const line = Buffer.from(`${id},${x},${s},${ok},${t}`, 'utf8');
    return rand(500) === 0 && s === 'plain' ? Buffer.concat([line.subarray(0, line.indexOf('plain')), Buffer.from([0x70, 0xff, 0xc3]), line.subarray(line.indexOf('plain') + 5)]) : line;
  });
}

const file = (lines: Buffer[], eol: string) => Buffer.concat([Buffer.from(HEADER + eol), ...lines.flatMap((l) => [l, Buffer.from(eol)])]);

describe('CSV ingest, parallel path against the sequential one', () => {
  it('gives every value the sequential path gives, whatever the number and string forms', async () => {
    const store = await freshStore();
    const lines = rows();
    const whole = store.table('whole');
    await whole.create(SCHEMA);
    const big = file(lines, '\n');
    expect(big.length).toBeGreaterThan(2 << 20); // parsed by the workers
    await whole.raw.ingest(await whole.raw.upload('big.csv', big));
    const parts = store.table('parts');
    await parts.create(SCHEMA);
    for (let i = 0; i < N; i += 10_000) {
      const small = file(lines.slice(i, i + 10_000), '\n');
      expect(small.length).toBeLessThan(1 << 21); // parsed sequentially
      await parts.raw.ingest(await parts.raw.upload(`part${i}.csv`, small));
    }
    const a = await whole.select().all();
    const b = await parts.select().all();
    expect(a.length).toBe(N);
    expect(b.length).toBe(N);
    const diff = a.findIndex((r, i) => !isDeepStrictEqual(r, b[i]));
    expect(diff < 0 ? null : { row: diff, parallel: a[diff], sequential: b[diff] }).toBeNull();
  });

  it('parses a file with CR-only line ends (left to the sequential pass)', async () => {
    const t = (await freshStore()).table('cr');
    await t.create(SCHEMA);
    const lines = Array.from({ length: N }, (_, i) => Buffer.from(`${i},${i / 4},station-${i},true,`));
    const csv = file(lines, '\r');
    expect(csv.length).toBeGreaterThan(2 << 20);
    await t.raw.ingest(await t.raw.upload('cr.csv', csv));
    const all = await t.select().all();
    expect(all.length).toBe(N);
    expect(all[N - 1]).toEqual({ id: BigInt(N - 1), x: (N - 1) / 4, s: `station-${N - 1}`, ok: true, t: null });
  });
  it('reuses warm parsing workers across ingests of different schemas, also after a failed ingest', async () => {
    const store = await freshStore();
    const lines = (n: number, f: (i: number) => string) => Array.from({ length: n }, (_, i) => Buffer.from(f(i)));
    const a = store.table('a');
    await a.create(new Schema([new Field('k', new Utf8(), true), new Field('v', new Float64(), true)]));
    const b = store.table('b');
    await b.create(new Schema([new Field('n', new Int64(), true), new Field('w', new Utf8(), true), new Field('flag', new Bool(), true)]));
    const aFile = (bad: number) => Buffer.concat([Buffer.from('k,v\n'), ...lines(N * 2, (i) => `key-${i}-padding,${i === bad ? 'oops' : i / 8}\n`)]);
    const bFile = Buffer.concat([Buffer.from('n,w,flag\n'), ...lines(N * 2, (i) => `${i},word-${i}-padding,${i % 2 === 0}\n`)]);
    expect(aFile(-1).length).toBeGreaterThan(2 << 20);
    await a.raw.ingest(await a.raw.upload('a.csv', aFile(-1)));
    await b.raw.ingest(await b.raw.upload('b.csv', bFile));
    const failed = await a.raw.ingest(await a.raw.upload('bad.csv', aFile(1000))).catch((e: unknown) => e);
    expect(failed).toMatchObject({ code: 'InvalidData', row: 1000, column: 'v' });
    await b.raw.ingest(await b.raw.upload('b2.csv', bFile));
    expect(await a.select().count()).toBe(N * 2);
    expect(await b.select().count()).toBe(N * 4);
    expect((await a.select('v == 100').all())[0]).toEqual({ k: 'key-800-padding', v: 100 });
    expect(await b.select('n == 7').all()).toEqual([
      { n: 7n, w: 'word-7-padding', flag: false },
      { n: 7n, w: 'word-7-padding', flag: false },
    ]);
  });
});
