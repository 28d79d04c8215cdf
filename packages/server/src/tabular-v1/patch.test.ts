// rowPatcher replaces only the patched columns of matched batches; the rest is carried over bit for bit.
import { openStore, type Store } from '@halocline/engine';
import { Binary, Field, Int64, type RecordBatch, Schema, TimestampNanosecond, Utf8 } from 'apache-arrow';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowPatcher } from './patch.js';

let dir: string;
let store: Store;
const schema = new Schema([
  new Field('id', new Int64(), false),
  new Field('s', new Utf8(), true),
  new Field('tn', new TimestampNanosecond('UTC'), true),
  new Field('b', new Binary(), true),
]);
const BIG = 2n ** 62n + 1n;
// row i: id BIG + i, nanosecond times, bytes, a null in every third row
const rows = Array.from({ length: 40 }, (_, i) => ({
  id: BIG + BigInt(i),
  s: `s${i}`,
  tn: i % 3 === 0 ? null : `2024-05-01T12:00:00.${String(123456789 + i).padStart(9, '0')}Z`,
  b: i % 3 === 1 ? null : new Uint8Array([i, 255 - i]),
}));

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'halocline-patch-'));
  store = await openStore({ path: dir, workers: 0 });
});
afterAll(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

// every row of a table as [id, s, tn, b] read straight from the columns (bigints and bytes, no Dates)
async function stored(table: string): Promise<unknown[][]> {
  const out: unknown[][] = [];
  for await (const batch of store.table(table).select().batches()) out.push(...columns(batch));
  return out.sort((a, b) => (a[0] as bigint) < (b[0] as bigint) ? -1 : 1);
}
function columns(batch: RecordBatch): unknown[][] {
  const raw = (c: number, i: number) => {
    const data = batch.data.children[c]!;
    if (!batch.getChildAt(c)!.isValid(i)) return null;
    return c === 2 ? (data.values as BigInt64Array)[i] : batch.getChildAt(c)!.get(i); // values start at the chunk's first row
  };
  return Array.from({ length: batch.numRows }, (_, i) => [0, 1, 2, 3].map((c) => (c === 3 ? (raw(c, i) ? Array.from(raw(c, i) as Uint8Array) : null) : raw(c, i))));
}

describe('rowPatcher', () => {
  it('sets the patched column and shares the others, for sliced batches and batches larger than the last', async () => {
    const t = store.table('p');
    await t.create(schema);
    await t.insert(rows);
    const before = await stored('p');
    const next = rowPatcher((await t.schema())!, { s: 'new' }, 'p');
    const tx = await t.begin();
    // a row deleted first splits the matches into slices around it
    await tx.delete('id == $d', { vars: { d: BIG + 2n } });
    let n = 0;
    // 35 rows, then two slices of 2 (columns made for 35 are sliced for them)
    for (const [query, vars] of [['id >= $lo', { lo: BIG + 5n }], ['id < $hi', { hi: BIG + 5n }]] as const) {
      for await (const batch of tx.replaceBatches(query, { vars })) {
        await tx.insert(next(batch));
        n += batch.numRows;
      }
    }
    await tx.commit();
    expect(n).toBe(39);
    const want = before.filter((r) => r[0] !== BIG + 2n).map((r) => [r[0], 'new', r[2], r[3]]);
    expect(await stored('p')).toEqual(want);
    expect(want.filter((r) => r[2] !== null)[0]![2]).toBe(1714564800123456790n);
  });

  it('checks the patch before any row is read: unknown column, wrong type, null where none may be', async () => {
    const s = (await store.table('p').schema())!;
    expect(() => rowPatcher(s, { colour: 'red' }, 'p')).toThrow(/^data, column "colour": no such column/);
    expect(() => rowPatcher(s, { tn: 'soon' }, 'p')).toThrow(/^data, column "tn": string "soon" is not an ISO-8601/);
    expect(() => rowPatcher(s, { id: null }, 'p')).toThrow(/^data, column "id": null in a non-nullable column/);
  });
});
