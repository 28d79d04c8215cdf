// Transactions: commit, rollback, isolation, own writes, delete, replace semantics, transaction().
import type { TableApi } from '@halocline/engine';
import { describe, expect, it } from 'vitest';
import { filled, fixtureRows, ids, rejects } from './fixture.js';

const row7 = { ...fixtureRows[0]!, id: 7, name: 'g' };

export function txSuite(open: () => Promise<TableApi>): void {
  describe('transactions', () => {
    it('commit makes inserts and deletes visible at once; before it others see nothing', async () => {
      const t = await filled(open);
      const tx = await t.begin();
      await tx.insert(row7);
      expect(await tx.delete('id <= 2')).toBe(2);
      expect(await ids(tx)).toEqual([3, 4, 5, 6, 7]);
      expect(await ids(t)).toEqual([1, 2, 3, 4, 5, 6]);
      await tx.commit();
      expect(tx.state).toBe('committed');
      expect(await ids(t)).toEqual([3, 4, 5, 6, 7]);
    });

    it('rollback discards everything; a finished transaction refuses more work', async () => {
      const t = await filled(open);
      const tx = await t.begin();
      await tx.insert(row7);
      await tx.delete('1==1');
      await tx.rollback();
      expect(tx.state).toBe('rolled back');
      expect(await ids(t)).toEqual([1, 2, 3, 4, 5, 6]);
      await rejects('Closed', () => tx.insert(row7));
    });

    it('a transaction reads its snapshot: commits of others after it began are not seen', async () => {
      const t = await filled(open);
      const tx = await t.begin();
      await t.insert(row7);
      expect(await ids(tx)).toEqual([1, 2, 3, 4, 5, 6]);
      expect(await ids(t)).toEqual([1, 2, 3, 4, 5, 6, 7]);
      await tx.rollback();
    });

    it('replace returns the matching rows and removes them; the caller inserts new versions', async () => {
      const t = await filled(open);
      await t.transaction(async (tx) => {
        const old = [];
        for await (const r of tx.replace('name == $n', { vars: { n: 'b' } })) old.push(r);
        expect(old.map((r) => r.id)).toEqual([2, 6]);
        for (const r of old) await tx.insert({ ...r, temp: 99 });
      });
      const rows = await t.select('name == "b"').all();
      expect(rows.map((r) => [r.id, r.temp])).toEqual([[2, 99], [6, 99]]);
      expect(await t.select().count()).toBe(6);
    });

    it('replace stopped after one row: the rows not reached stay', async () => {
      const t = await filled(open);
      const before = (await t.select().all()).filter((r) => r.id !== 1);
      const tx = await t.begin();
      const taken = [];
      for await (const r of tx.replace('1==1')) {
        taken.push(r.id);
        break;
      }
      expect(taken).toEqual([1]);
      await tx.commit();
      expect(await ids(t)).toEqual([2, 3, 4, 5, 6]);
      const byId = (rows: Record<string, unknown>[]) => [...rows].sort((a, b) => (a.id as number) - (b.id as number));
      expect(byId(await t.select().all())).toEqual(byId(before)); // the rows not reached keep every value
    });

    it('replace stopped midway through an answer of several batches: the rows not reached stay', async () => {
      const t = await filled(open);
      // two more inserts: the answer spans several partitions, so several batches
      await t.insert(fixtureRows.map((r) => ({ ...r, id: (r.id as number) + 10 })));
      await t.insert(fixtureRows.map((r) => ({ ...r, id: (r.id as number) + 20 })));
      const all = await t.select().all();
      const tx = await t.begin();
      const taken: number[] = [];
      for await (const r of tx.replace('1==1')) {
        taken.push(r.id as number);
        if (taken.length === 8) break;
      }
      await tx.commit();
      const byId = (rows: Record<string, unknown>[]) => [...rows].sort((a, b) => (a.id as number) - (b.id as number));
      expect(byId(await t.select().all())).toEqual(byId(all.filter((r) => !taken.includes(r.id as number))));
    });

    it('transaction() rolls back when the callback throws; invalid data rolls back too', async () => {
      const t = await filled(open);
      await expect(t.transaction(async (tx) => {
        await tx.delete('1==1');
        throw new Error('boom');
      })).rejects.toThrow('boom');
      expect(await t.select().count()).toBe(6);
      await rejects('InvalidData', () => t.transaction(async (tx) => {
        await tx.insert(row7);
        await tx.insert({ ...row7, id: 'x' });
      }));
      expect(await ids(t)).toEqual([1, 2, 3, 4, 5, 6]);
    });
  });
}
