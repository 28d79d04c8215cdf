// Bind variables through every entry that takes them: a value the query does not use is an error, as a surplus `?` value is.
import { Field, Float64, Int32, Schema, Utf8 } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import type { HaloclineError } from './index.js';
import { rejected } from './test-util/errors.js';
import { freshStore } from './test-util/store.js';

const schema = new Schema([new Field('id', new Int32(), false), new Field('depth', new Float64(), true), new Field('platform', new Utf8(), true)]);
const rows = Array.from({ length: 10 }, (_, id) => ({ id, depth: id * 10, platform: id % 2 === 0 ? 'A' : 'B' }));

async function table() {
  const store = await freshStore();
  const t = store.table('ctd');
  await t.create(schema);
  await t.insert(rows);
  return t;
}
type T = Awaited<ReturnType<typeof table>>;

const unused = (name: string) => (e: HaloclineError) => {
  expect(e.code).toBe('QuerySyntax');
  expect(e.message).toContain(`$${name} in vars is not used`);
};

describe('bind variables', () => {
  it('refuse a named value the filter does not use in select, count and a select without a filter', async () => {
    const t = await table();
    // a misspelt name was ignored silently before
    unused('dpeth')(await rejected('QuerySyntax', () => t.select('depth > $d', { vars: { d: 50, dpeth: 5 } }).all()));
    unused('dpeth')(await rejected('QuerySyntax', () => t.select('depth > $d', { vars: { d: 50, dpeth: 5 } }).count()));
    unused('x')(await rejected('QuerySyntax', () => t.select(undefined, { vars: { x: 1 } }).all()));
    unused('x')(await rejected('QuerySyntax', () => t.select('', { vars: { x: 1 } }).count()));
    // as a surplus positional value is
    expect((await rejected('QuerySyntax', () => t.select(undefined, { vars: [1] }).all())).message).toBe("got 1 bind variables for 0 '?' placeholders");
    // used ones, empty vars and undefined values pass
    expect(await t.select('depth > $d and platform == $p', { vars: { d: 50, p: 'A' } }).count()).toBe(2);
    expect(await t.select(undefined, { vars: {} }).count()).toBe(10);
    expect(await t.select('depth > $d', { vars: { d: 50, e: undefined } }).count()).toBe(4);
  });

  it('refuse it in delete, replace and a transaction select, changing nothing', async () => {
    const t = await table();
    const tx = await t.begin();
    await tx.insert({ id: 10, depth: 100, platform: 'C' });
    unused('extra')(await rejected('QuerySyntax', () => tx.delete('id < $n', { vars: { n: 5, extra: 1 } })));
    unused('extra')(
      await rejected('QuerySyntax', async () => {
        for await (const _ of tx.replace('id < $n', { vars: { n: 5, extra: 1 } }));
      }),
    );
    unused('extra')(await rejected('QuerySyntax', () => tx.select('id < $n', { vars: { n: 5, extra: 1 } }).all()));
    // the transaction goes on: the refused statements did nothing
    expect(await tx.select().count()).toBe(11);
    expect(await tx.delete('id < $n', { vars: { n: 2 } })).toBe(2);
    await tx.commit();
    expect(await t.select().count()).toBe(9);
  });

  it('share named values between the group-by and the query of an aggregate, and refuse one used by neither', async () => {
    const t = await table();
    const sums = async (by: string, options: Parameters<T['aggregate']>[1]) => {
      const result = await t.aggregate(by, { aggr: { depth: 'sum' }, ...options });
      return Object.fromEntries(result.toArray().map((r) => [String(r[by]), Number(r.depth)]));
    };
    expect(await sums('bucket(depth, $b)', { query: 'platform == $p', vars: { b: 40, p: 'A' } })).toEqual({ '40': 60 }); // rows of A above the last bound are in no bucket
    expect(await sums('platform', { query: 'depth >= $d', vars: { d: 50 } })).toEqual({ A: 140, B: 210 });
    expect(await sums('depth > $d', { query: 'depth < $d + 30', vars: { d: 20 } })).toEqual({ false: 30, true: 70 });
    unused('q')(await rejected('QuerySyntax', () => t.aggregate('platform', { query: 'depth > $d', vars: { d: 1, q: 2 } })));
    unused('q')(await rejected('QuerySyntax', () => t.aggregatePartials('platform', { vars: { q: 2 } })));
  });

  it('number the ? of an aggregate group-by first, then those of its query', async () => {
    const t = await table();
    const keys = async (by: string, options: Parameters<T['aggregate']>[1]) => (await t.aggregate(by, options)).toArray().map((r) => [r[by], Number(r['*'])]);
    // the query's ? alone (its group-by has none): this failed as a surplus value of the group-by
    expect(await keys('platform', { query: 'depth > ?', vars: [60] })).toEqual([['A', 1], ['B', 2]]);
    expect(await keys('bucket(depth, ?)', { query: 'depth > ?', vars: [50, 20] })).toEqual([[50, 3]]);
    expect((await rejected('QuerySyntax', () => t.aggregate('platform', { query: 'depth > ?', vars: [1, 2] }))).message).toBe("got 2 bind variables for 1 '?' placeholder");
  });

  it('refuse it in a raw file listing', async () => {
    const t = await table();
    await t.raw.upload('a.csv', new TextEncoder().encode('x\n1\n'));
    expect((await t.raw.list('name == $n', { vars: { n: 'a.csv' } })).map((e) => e.name)).toEqual(['a.csv']);
    unused('m')(await rejected('QuerySyntax', () => t.raw.list('name == $n', { vars: { n: 'a.csv', m: 1 } })));
    unused('m')(await rejected('QuerySyntax', () => t.raw.list(undefined, { vars: { m: 1 } })));
  });
});
