// Transactions through the public API: isolation, own writes, delete/replace, conflicts, rollback.
import { Field, Float64, Int32, Schema, TimestampMicrosecond, Utf8 } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import type { Row, Store, Table } from '../index.js';
import { rejected } from '../test-util/errors.js';
import { freshStore } from '../test-util/store.js';

const schema = new Schema([new Field('id', new Int32(), false), new Field('temp', new Float64(), true), new Field('tag', new Utf8(), true)]);
const rows = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => ({ id: from + i, temp: (from + i) / 2, tag: `r${from + i}` }));
const ids = (rs: Row[]) => rs.map((r) => r.id as number).sort((a, b) => a - b);

async function table(options = {}): Promise<{ store: Store; t: Table }> {
  const store = await freshStore(options);
  const t = store.table('obs');
  await t.create(schema);
  await t.insert(rows(0, 10));
  return { store, t };
}

describe('transactions', () => {
  it('count a row matched by two of their deletes in flight at once only once, and commit it once', async () => {
    const { t } = await table();
    const tx = await t.begin();
    // both match from the same view; the one marking second finds rows 3 and 4 (in the middle of its own) taken
    const [a, b] = await Promise.all([tx.delete('id >= 3 and id < 5'), tx.delete('id < 8')]);
    expect(a + b).toBe(8);
    expect(ids(await tx.select().all())).toEqual([8, 9]);
    await tx.commit();
    expect(ids(await t.select().all())).toEqual([8, 9]);
    expect((await t.stats()).num_rows).toBe(2);
    // the committed deletion record holds each row once: a later delete of them finds nothing
    expect(await t.transaction((x) => x.delete('id < 8'))).toBe(0);
  });

  it('see their own writes, stay invisible to others until commit, and apply at once', async () => {
    const { t } = await table();
    const tx = await t.begin();
    await tx.insert(rows(10, 12));
    expect(await tx.delete('id < $n', { vars: { n: 3 } })).toBe(3);
    expect(await tx.delete('id < 3')).toBe(0); // already gone in its view
    expect(ids(await tx.select().all())).toEqual([3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(await tx.select('id >= 10').count()).toBe(2);
    // others still see the table as committed
    expect(await t.select().count()).toBe(10);
    const reader = t.select('id < 3').rows()[Symbol.asyncIterator]();
    expect((await reader.next()).value).toMatchObject({ id: 0 }); // pinned before the commit
    await tx.commit();
    expect(ids(await t.select().all())).toEqual([3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(await t.select().count()).toBe(9);
    expect((await t.stats()).num_rows).toBe(9);
    // the old reader's snapshot is unchanged
    expect((await reader.next()).value).toMatchObject({ id: 1 });
    await reader.return?.(undefined);
    expect(tx.state).toBe('committed');
    await rejected('Closed', tx.insert(rows(20, 21)));
  });

  it('rolls back on rollback() or a throwing callback, and commits the callback result', async () => {
    const { t } = await table();
    const tx = await t.begin();
    await tx.delete('id > 0');
    await tx.insert(rows(50, 60));
    await tx.rollback();
    await tx.rollback(); // harmless
    await rejected('Closed', tx.delete('id > 0'));
    await rejected('Closed', tx.commit());
    expect(await t.select().count()).toBe(10);
    await expect(
      t.transaction(async (x) => {
        await x.delete('id == 1');
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await t.select().count()).toBe(10);
    const n = await t.transaction(async (x) => x.delete('id == 1'));
    expect(n).toBe(1);
    expect(await t.select('id == 1').count()).toBe(0);
  });

  it('leaves a transaction the callback committed or rolled back itself as it ended it, and resolves', async () => {
    const { t } = await table();
    expect(await t.transaction(async (x) => { await x.insert(rows(20, 22)); await x.commit(); return 'committed'; })).toBe('committed');
    expect(await t.select().count()).toBe(12);
    expect(await t.transaction(async (x) => { await x.delete('id >= 20'); await x.rollback(); return 'rolled back'; })).toBe('rolled back');
    expect(await t.select().count()).toBe(12);
    // a commit that fails inside the callback is the callback's error
    const other = await t.begin();
    await other.delete('id == 20');
    await expect(t.transaction(async (x) => { await x.delete('id == 20'); await other.commit(); await x.commit(); })).rejects.toMatchObject({ code: 'Conflict' });
    expect(await t.select('id == 20').count()).toBe(0);
    expect(await t.select().count()).toBe(11);
  });

  it('replace yields each match once, computed first, including rows inserted earlier in the transaction', async () => {
    const { t } = await table();
    await t.transaction(async (tx) => {
      await tx.insert({ id: 100, temp: 1, tag: 'new' });
      const seen: number[] = [];
      for await (const old of tx.replace('temp >= 1 and temp < 3')) {
        seen.push(old.id as number);
        await tx.insert({ ...old, temp: (old.temp as number) + 0.5 }); // still matches: must not feed back
      }
      expect(seen.sort((a, b) => a - b)).toEqual([2, 3, 4, 5, 100]);
    });
    const after = await t.select('id == 2 or id == 5 or id == 100').all();
    expect(after.map((r) => [r.id, r.temp]).sort((a, b) => (a[0] as number) - (b[0] as number))).toEqual([
      [2, 1.5],
      [5, 3],
      [100, 1.5],
    ]);
    expect(await t.select().count()).toBe(11);
  });

  it('replace skips rows deleted meanwhile, keeps rows not reached, and yields record batches from .batches()', async () => {
    const { t } = await table();
    await t.transaction(async (tx) => {
      const seen: number[] = [];
      for await (const old of tx.replace('id < 6')) {
        seen.push(old.id as number);
        if (old.id === 1) await tx.delete('id == 2 or id == 4'); // not yielded after this
        if (old.id === 3) break; // 5 is not reached: it stays
      }
      expect(seen).toEqual([0, 1, 3]);
    });
    expect(ids(await t.select().all())).toEqual([5, 6, 7, 8, 9]);
    await t.transaction(async (tx) => {
      await tx.delete('id == 7');
      const got: number[][] = [];
      for await (const b of tx.replace('id >= 6').batches()) got.push([...b.getChild('id')!.toArray()] as number[]);
      expect(got).toEqual([[6, 8, 9]]); // the match scan already leaves out the row deleted before
      await tx.insert({ id: 60, temp: null, tag: null });
    });
    expect(ids(await t.select().all())).toEqual([5, 60]);
  });

  it.each([0, 2])('replace over partitions still being scanned (workers %i) matches as of its start', async (workers) => {
    const store = await freshStore({ workers, inlineRows: 1 });
    const t = store.table('obs');
    await t.create(schema);
    for (let p = 0; p < 6; p++) await t.insert(rows(p * 10, p * 10 + 10)); // six partitions
    await t.transaction(async (tx) => {
      const seen: number[] = [];
      for await (const old of tx.replace('id % 10 < 3')) {
        seen.push(old.id as number);
        // a row of a later partition deleted, and matching rows inserted, while the later partitions are scanned
        if (old.id === 0) await tx.delete('id == 41 or id == 52');
        await tx.insert({ id: 1000 + (old.id as number), temp: 0, tag: 'x' });
      }
      expect(seen).toEqual([0, 1, 2, 10, 11, 12, 20, 21, 22, 30, 31, 32, 40, 42, 50, 51]);
      const batches: number[] = [];
      for await (const b of tx.replace('id >= 1000 and id < 1030').batches()) batches.push(...(b.getChild('id')!.toArray() as Int32Array));
      expect(batches).toEqual([1000, 1001, 1002, 1010, 1011, 1012, 1020, 1021, 1022]);
    });
    expect(await t.select('id >= 1000').count()).toBe(7);
    expect(await t.select('id < 60').count()).toBe(60 - 18);
    // stopping in the first partition while the others are still being scanned: the rest stay
    await t.transaction(async (tx) => {
      for await (const old of tx.replace('id % 10 >= 8')) if (old.id === 8) break;
    });
    expect(await t.select('id % 10 >= 8 and id < 60').count()).toBe(11);
  });

  it('first committer wins on overlapping deletes; disjoint deletes and appends never conflict', async () => {
    const { t } = await table();
    const a = await t.begin();
    const b = await t.begin();
    const c = await t.begin();
    await a.delete('id <= 3');
    await b.delete('id == 3'); // overlaps a
    await b.insert(rows(30, 31));
    await c.delete('id == 9'); // disjoint
    await c.insert(rows(40, 41));
    await t.insert(rows(20, 21)); // a plain append in between
    await a.commit();
    const e = await rejected('Conflict', b.commit());
    expect(e.table).toBe('obs');
    expect(b.state).toBe('rolled back');
    await c.commit();
    expect(ids(await t.select().all())).toEqual([4, 5, 6, 7, 8, 20, 40]);
  });

  it('an explicit transaction works from independent async calls and can be rolled back from outside', async () => {
    const { t } = await table();
    const tx = await t.begin();
    await Promise.all([tx.insert(rows(10, 11)), tx.delete('id == 0'), tx.insert(rows(11, 12)), tx.delete('id == 1')]);
    expect(await tx.select().count()).toBe(10);
    const iter = tx.replace('id >= 5')[Symbol.asyncIterator]();
    await iter.next();
    await tx.rollback(); // e.g. an idle timeout
    await rejected('Closed', iter.next());
    expect(await t.select().count()).toBe(10);
  });

  it('reports bad filters with their position and changes nothing', async () => {
    const { t } = await table();
    const tx = await t.begin();
    const e = await rejected('QueryType', tx.delete('nope > 1'));
    expect(e.position).toBe(0);
    await rejected('InvalidData', tx.insert([{ id: 'x' }])); // arrays and Arrow data: at once
    await tx.commit();
    expect(await t.select().count()).toBe(10);
  });

  it('queues per-row inserts in order; a bad one fails its own insert call, adds nothing, and the transaction goes on', async () => {
    const { t } = await table();
    await t.transaction(async (tx) => {
      for (const r of rows(10, 13)) await tx.insert(r);
      await tx.insert(rows(13, 15));
      await tx.insert(rows(15, 16)[0]!);
      expect(ids(await tx.select('id >= 10').all())).toEqual([10, 11, 12, 13, 14, 15]);
    });
    expect((await t.select('id >= 10').all()).map((r) => r.id)).toEqual([10, 11, 12, 13, 14, 15]); // insertion order
    const tx = await t.begin();
    await tx.insert(rows(20, 21)[0]!);
    const e = await rejected('InvalidData', tx.insert({ id: 21, temp: 'warm' }));
    expect(e).toMatchObject({ row: 0, column: 'temp', value: 'warm', table: 'obs' });
    expect(e.message).toBe('row 0, column "temp": expected float64, got string "warm"');
    expect(await rejected('InvalidData', tx.insert({ id: 30, nope: 1 }))).toMatchObject({ row: 0, column: 'nope' });
    expect(await rejected('InvalidData', tx.insert({ temp: 1 }))).toMatchObject({ row: 0, column: 'id' });
    expect(tx.state).toBe('active');
    await tx.insert(rows(22, 23)[0]!);
    expect(ids(await tx.select('id >= 20').all())).toEqual([20, 22]);
    await tx.commit();
    expect(ids(await t.select('id >= 20').all())).toEqual([20, 22]);
  });

  it('converts staged per-row inserts in blocks: order kept across blocks, a bad row refused by its own insert in any block', async () => {
    const { t } = await table();
    const n = 5_000; // more than two 2k blocks
    await t.transaction(async (tx) => {
      for (let i = 0; i < n; i++) await tx.insert(i % 3 === 0 ? { tag: null, id: 1000 + i } : { id: 1000 + i, temp: i, tag: `r${i}` });
    });
    const all = await t.select('id >= 1000').all();
    expect(all.map((r) => r.id)).toEqual(Array.from({ length: n }, (_, i) => 1000 + i));
    expect(all[3]).toEqual({ id: 1003, temp: null, tag: null });
    expect(all[n - 1]).toEqual({ id: 1000 + n - 1, temp: n - 1, tag: `r${n - 1}` });
    const tx = await t.begin();
    const failed: number[] = [];
    let error: unknown;
    for (let i = 0; i < n; i++) {
      // 2047 fills the first block: its insert converts the block
      const bad = i % 1000 === 99 || i === 2_047;
      await tx.insert(bad ? { id: -1 - i, temp: 'warm' } : { id: -1 - i, temp: i }).catch((e: unknown) => {
        failed.push(i);
        error = e;
      });
    }
    expect(failed).toEqual([99, 1_099, 2_047, 2_099, 3_099, 4_099]);
    expect(error).toMatchObject({ code: 'InvalidData', column: 'temp', row: 0 });
    expect(tx.state).toBe('active');
    await tx.commit();
    const back = await t.select('id < 0').all();
    expect(back.map((r) => -1 - (r.id as number))).toEqual(Array.from({ length: n }, (_, i) => i).filter((i) => !failed.includes(i)));
  });

  it('rolls back, naming the insert call, when staged rows fail to convert after their inserts passed (a Date changed since)', async () => {
    const store = await freshStore();
    const t = store.table('times');
    await t.create(new Schema([new Field('id', new Int32(), false), new Field('at', new TimestampMicrosecond(), true)]));
    const tx = await t.begin();
    const when = new Date('2024-05-01T00:00:00Z');
    await tx.insert({ id: 1, at: new Date('2024-01-01T00:00:00Z') });
    await tx.insert({ id: 2, at: when });
    when.setTime(Number.NaN); // after its insert passed: the staged value is the caller's Date
    const e = await rejected('InvalidData', tx.select().count());
    expect(e.message).toMatch(/^the row of insert call 2 of this transaction, column "at": invalid Date .*; the transaction is rolled back$/);
    expect(tx.state).toBe('rolled back');
    expect(await t.select().count()).toBe(0);
  });

  it('keeps deletes across compaction: a transaction deleting in a partition merged meanwhile still commits', async () => {
    const { t } = await table({ partitionRows: 64, compactRun: 2 });
    const tx = await t.begin();
    expect(await tx.delete('id == 3 or id == 7')).toBe(2);
    await t.transaction(async (x) => void (await x.delete('id == 5')));
    for (let i = 0; i < 4; i++) await t.insert(rows(100 + i * 5, 105 + i * 5)); // small deltas → merged
    await waitFor(async () => (await partsOf(t)) <= 2);
    await tx.commit();
    expect(ids(await t.select('id < 10').all())).toEqual([0, 1, 2, 4, 6, 8, 9]);
    expect(await t.select().count()).toBe(27);
    // overlapping with a delete that compaction already folded in: a conflict, not a silent double delete
    await waitFor(async () => (await partsOf(t)) <= 2);
    await t.insert(rows(300, 303));
    const holder = (await partIds(t)).at(-1);
    const late = await t.begin();
    await late.delete('id == 300');
    await t.transaction(async (x) => void (await x.delete('id == 300')));
    await t.insert(rows(400, 405));
    // compaction rewrites the partition of row 300 (a third of it deleted), alone or in a merge
    await waitFor(async () => !(await partIds(t)).includes(holder!));
    await rejected('Conflict', late.commit());
    expect(await t.select('id >= 300').count()).toBe(7);
  });

  it('keeps deletes from several partitions that compaction merged into one', async () => {
    const store = await freshStore({ partitionRows: 64, compactRun: 100 });
    const t = store.table('obs');
    await t.create(schema);
    for (let i = 0; i < 3; i++) await t.insert(rows(i * 5, i * 5 + 5)); // three small partitions
    const tx = await t.begin();
    expect(await tx.delete('id == 1 or id == 6 or id == 11')).toBe(3); // one row in each
    const { compactOnce, pickRun } = await import('../write/compact.js');
    const ctx = (t as unknown as { ctx: Parameters<typeof compactOnce>[0] }).ctx;
    const { openSnapshot } = await import('../read/snapshot.js');
    const snap = openSnapshot(ctx, 'obs');
    snap.release();
    expect(pickRun(snap.parts, 64, 2)).toHaveLength(3);
    // merge the three with a run length of 2 (the store's own option would never merge them)
    Object.assign(ctx.options, { compactRun: 2 });
    expect(await compactOnce(ctx, 'obs', snap.record.id)).toBe(true);
    expect(await partsOf(t)).toBe(1);
    await tx.commit();
    expect(ids(await t.select().all())).toEqual([0, 2, 3, 4, 5, 7, 8, 9, 10, 12, 13, 14]);
  });
});

// the number of partitions a fresh snapshot sees (through the store's internals: no public API for it)
async function partsOf(t: Table): Promise<number> {
  return (await partIds(t)).length;
}

// the ids of the partitions a fresh snapshot sees, in row order
async function partIds(t: Table): Promise<string[]> {
  const ctx = (t as unknown as { ctx: Parameters<typeof import('../read/snapshot.js').openSnapshot>[0] }).ctx;
  const { openSnapshot } = await import('../read/snapshot.js');
  const snap = openSnapshot(ctx, t.name);
  snap.release();
  return snap.parts.map((p) => p.id);
}

async function waitFor(cond: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await cond()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('condition not reached');
}
