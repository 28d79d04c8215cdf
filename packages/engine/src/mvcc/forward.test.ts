// Deletes of transactions that began before a k-d split merge follow its forward records row by row.
import { Field, Int32, Schema } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import type { StoreContext } from '../context.js';
import type { Table } from '../index.js';
import { openSnapshot } from '../read/snapshot.js';
import { rejected } from '../test-util/errors.js';
import { freshStore } from '../test-util/store.js';
import { compactOnce } from '../write/compact.js';

const schema = new Schema([new Field('k', new Int32(), false, new Map([['index', 'true']])), new Field('id', new Int32(), false)]);
// keys out of id order, so a k-d split moves rows away from their concatenated positions
const rows = (ids: number[]) => ids.map((id) => ({ k: (id * 7919) % 101, id }));
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

async function setup(workers: number): Promise<{ t: Table; ctx: StoreContext; merge: () => Promise<number> }> {
  // leaves of 256 rows and compactRun 100: the test's small inserts trigger no background merge;
  // `merge` runs the merges the table is due with leaves of 4 rows and a run of 2
  const store = await freshStore({ partitionRows: 1024, compactRun: 100, workers });
  const t = store.table('kd');
  await t.create(schema);
  const ctx = (t as unknown as { ctx: StoreContext }).ctx;
  const merge = async () => {
    // a background compaction an earlier commit scheduled must not run with the options below
    await store.idle();
    Object.assign(ctx.options, { compactRun: 2, partitionRows: 16 });
    let n = 0;
    const id = openSnapshot(ctx, 'kd');
    id.release();
    while (await compactOnce(ctx, 'kd', id.record.id)) n++;
    Object.assign(ctx.options, { compactRun: 100, partitionRows: 1024 });
    return n;
  };
  return { t, ctx, merge };
}

const ids = async (t: Table) => (await t.select().all()).map((r) => r.id as number).sort((a, b) => a - b);
const levels = (ctx: StoreContext) => {
  const snap = openSnapshot(ctx, 'kd');
  snap.release();
  return snap.parts.map((p) => p.level ?? 0);
};

// without workers the merge runs here; with them on the part writer thread, which maps the rows
describe.each([0, 1])('forwards of k-d split merges (workers: %i)', (workers) => {
  it('a transaction that began before a k-d merge (and a second one on top) deletes exactly its rows', async () => {
    const { t, ctx, merge } = await setup(workers);
    for (let i = 0; i < 3; i++) await t.insert(rows(range(i * 5, i * 5 + 5)));
    await t.transaction(async (tx) => void (await tx.delete('id == 4'))); // dropped by the merge
    const tx = await t.begin();
    expect(await tx.delete('id == 0 or id == 6 or id == 7 or id == 13 or id == 14')).toBe(5);
    expect(await merge()).toBe(1);
    expect(levels(ctx).every((l) => l === 1)).toBe(true);
    expect(levels(ctx).length).toBeGreaterThan(1); // split into several leaves
    // three more runs at tier 1, then one merge into tier 2: the forwards chain
    for (let r = 1; r < 4; r++) {
      for (let i = 0; i < 2; i++) await t.insert(rows(range(100 * r + i * 5, 100 * r + i * 5 + 5)));
      await merge();
    }
    expect(Math.max(...levels(ctx))).toBe(2);
    await tx.commit();
    const expected = [...range(0, 15), ...[1, 2, 3].flatMap((r) => range(100 * r, 100 * r + 10))].filter((id) => ![0, 4, 6, 7, 13, 14].includes(id));
    expect(await ids(t)).toEqual(expected);
  });

  it('conflicts when a row it deletes was deleted by another commit before or after the merge', async () => {
    const { t, merge } = await setup(workers);
    for (let i = 0; i < 3; i++) await t.insert(rows(range(i * 5, i * 5 + 5)));
    const before = await t.begin();
    const after = await t.begin();
    await before.delete('id == 2 or id == 9');
    await after.delete('id == 3 or id == 11');
    await t.transaction(async (x) => void (await x.delete('id == 9'))); // before the merge
    await merge();
    await t.transaction(async (x) => void (await x.delete('id == 11'))); // after it, in the merged leaf
    await rejected('Conflict', before.commit());
    await rejected('Conflict', after.commit());
    expect(await ids(t)).toEqual(range(0, 15).filter((id) => id !== 9 && id !== 11));
  });
});
