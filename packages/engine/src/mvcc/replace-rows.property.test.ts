// The row form of replace: each row yielded is what select().rows() yields, and inserting it back round-trips exactly.
import * as arrow from 'apache-arrow';
import { Field, Schema } from 'apache-arrow';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Row } from '../index.js';
import { isHaloclineError } from '../errors.js';
import { checkParams, soakTimeout } from '../test-util/soak.js';
import { freshStore } from '../test-util/store.js';

const geometry = new Map([['class', 'geometry']]);
const schema = new Schema([
  new Field('id', new arrow.Int32(), false),
  new Field('big', new arrow.Int64(), false),
  new Field('k', new arrow.Int64(), true),
  new Field('time', new arrow.TimestampMillisecond(), true),
  new Field('day', new arrow.DateDay(), true),
  new Field('x', new arrow.Float64(), false),
  new Field('y', new arrow.Float64(), true),
  new Field('f', new arrow.Float32(), true),
  new Field('s', new arrow.Utf8(), true),
  new Field('ok', new arrow.Bool(), true),
  new Field('bin', new arrow.Binary(), true),
  new Field('geom', new arrow.Utf8(), true, geometry),
]);

const int64 = fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n });
const double = fc.oneof(fc.double(), fc.constantFrom(NaN, -0, 0, Infinity, -Infinity, 2 ** 53 + 2));
const text = fc.oneof(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary' }).filter((s) => (s as string & { isWellFormed(): boolean }).isWellFormed()), fc.constantFrom('', 'a', 'é', '😀', 'x'.repeat(40)));
// rows without an id: the test numbers them
const row = fc.record({
  big: int64,
  k: fc.option(int64),
  time: fc.option(fc.integer({ min: -8.64e15, max: 8.64e15 }).map((ms) => new Date(ms))),
  day: fc.option(fc.integer({ min: -100_000, max: 100_000 }).map((d) => new Date(d * 86_400_000))),
  x: double,
  y: fc.option(double),
  f: fc.option(fc.float({ noDefaultInfinity: false }).map((v) => Math.fround(v))),
  s: fc.option(text),
  ok: fc.option(fc.boolean()),
  bin: fc.option(fc.uint8Array({ maxLength: 8 })),
  geom: fc.option(fc.tuple(fc.integer({ min: -180, max: 180 }), fc.integer({ min: -90, max: 90 })).map(([x, y]) => `POINT (${x} ${y})`)),
});

// select().rows(), iterated
async function selected(t: { select(): { rows(): AsyncIterable<Row> } }): Promise<Row[]> {
  const out: Row[] = [];
  for await (const r of t.select().rows()) out.push(r);
  return byId(out);
}
const byId = (rows: Row[]) => [...rows].sort((a, b) => (a.id as number) - (b.id as number));

describe('replace as rows', () => {
  it('yields each row as select().rows() does, and inserting it back unchanged round-trips exactly', async () => {
    const store = await freshStore();
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(row, { minLength: 1, maxLength: 40 }), fc.integer({ min: 0, max: 39 }), async (rows, cut) => {
        const t = store.table(`t${n++}`);
        await t.create(schema);
        // two inserts: two partitions, so the iteration crosses one
        const all = rows.map((r, id) => ({ id, ...r }));
        await t.insert(all.slice(0, cut));
        await t.insert(all.slice(cut));
        const before = await selected(t);
        expect(before).toEqual(all);
        const seen: Row[] = [];
        await t.transaction(async (tx) => {
          for await (const old of tx.replace('id >= 0')) {
            seen.push(old);
            await tx.insert({ ...old });
          }
        });
        expect(byId(seen)).toEqual(before);
        const after = await selected(t);
        expect(after).toEqual(before);
        // the same JS types, not just equal values (-0 and 0, NaN)
        for (let i = 0; i < after.length; i++) for (const k of Object.keys(after[i]!)) expect(Object.is(after[i]![k], before[i]![k]) || after[i]![k] instanceof Object).toBe(true);
        await t.drop();
      }),
      checkParams(25),
    );
  }, soakTimeout(60_000, 25, checkParams(25).numRuns!));

  it('rejects a bad inserted row at its own insert, naming the column; the transaction that throws applies nothing', async () => {
    const store = await freshStore();
    const t = store.table('t');
    await t.create(schema);
    await t.insert(Array.from({ length: 5 }, (_, id) => ({ id, big: BigInt(id) ** 20n, x: id / 3 })));
    const cases: [(old: Row) => Row, string][] = [
      [(old) => ({ ...old, x: 'warm' }), 'column "x"'],
      [(old) => ({ ...old, big: 2n ** 63n }), 'column "big"'],
      [(old) => ({ ...old, time: new Date(NaN) }), 'column "time"'],
      [(old) => ({ ...old, x: null }), 'column "x"'],
      [({ big: _big, ...old }) => old, 'column "big"'],
      [(old) => ({ ...old, depth: 1 }), 'unknown column "depth"'],
    ];
    for (const [change, column] of cases) {
      let failedAt = -1;
      const failure = await t
        .transaction(async (tx) => {
          let i = 0;
          // the third row is the bad one
          for await (const old of tx.replace('id >= 0')) {
            await tx.insert(i++ === 2 ? change(old) : { ...old }).catch((e: unknown) => {
              failedAt = i;
              throw e;
            });
          }
        })
        .then(
          () => null,
          (e: unknown) => e,
        );
      expect(isHaloclineError(failure, 'InvalidData')).toBe(true);
      expect(failedAt).toBe(3);
      expect((failure as Error).message).toMatch(/^row 0, /);
      expect((failure as Error).message).toContain(column);
      expect((await selected(t)).map((r) => [r.id, r.big, r.x])).toEqual(Array.from({ length: 5 }, (_, id) => [id, BigInt(id) ** 20n, id / 3]));
    }
  });
});
