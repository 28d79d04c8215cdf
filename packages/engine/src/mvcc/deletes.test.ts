// Deletion vectors on disk: compact binary records, readable v1 (base64) records, the format upgrade.
import { join } from 'node:path';
import { Field, Int32, Schema } from 'apache-arrow';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openStore } from '../index.js';
import { openLmdbMetaStore } from '../storage/lmdb.js';
import { type DeleteRecord, STORE_FORMAT, STORE_KEY } from '../storage/records.js';
import { tempDir } from '../test-util/tmp.js';
import { emptyBits, isDeleted, markRows, markRun, positions, survivors } from './deletes.js';
import { countSet } from '../exec/gather.js';
import { decodePositions } from './positions.js';

const schema = new Schema([new Field('id', new Int32(), false)]);

describe('deletion vectors on disk', () => {
  it('are binary in a current store; a v1 store with base64 records opens, reads them, and becomes current', async () => {
    const dir = await tempDir();
    try {
      let store = await openStore({ path: dir.path, workers: 0 });
      const t = store.table('d');
      await t.create(schema);
      await t.insert(Array.from({ length: 100 }, (_, id) => ({ id })));
      await t.transaction(async (tx) => void (await tx.delete('id >= 10 and id < 20')));
      await t.transaction(async (tx) => void (await tx.delete('id == 77')));
      await store.close();
      // what the first format wrote: the same records with base64 u32 lists, and the v1 marker
      const meta = await openLmdbMetaStore(join(dir.path, 'meta'));
      const records = meta.range<DeleteRecord>('d/');
      expect(records.map(([, r]) => r.rows instanceof Uint8Array)).toEqual([true, true]);
      expect(records[0]![1].rows.length).toBe(10); // 10 rows in a row: 4 bytes of header, first row, 2 bytes of bits
      await meta.write((tx) => {
        tx.put(STORE_KEY, { magic: 'halocline', version: 1 });
        for (const [key, r] of records) tx.put(key, { ...r, rows: Buffer.from(decodePositions(r.rows).buffer).toString('base64') });
      });
      await meta.close();
      store = await openStore({ path: dir.path, workers: 0 });
      expect(await store.table('d').select().count()).toBe(89);
      await store.table('d').transaction(async (tx) => void (await tx.delete('id == 5 or id == 25')));
      expect(await store.table('d').select().count()).toBe(87);
      await store.close();
      const after = await openLmdbMetaStore(join(dir.path, 'meta'));
      expect(after.get(STORE_KEY)).toEqual(STORE_FORMAT);
      await after.close();
    } finally {
      await dir.remove();
    }
  });
});

describe('deletion records of a delete', () => {
  it('hold exactly the rows deleted, whether encoded by the scan workers (one delete) or at commit (rows deleted again)', async () => {
    const dir = await tempDir();
    try {
      const store = await openStore({ path: dir.path, workers: 2, inlineRows: 16 });
      const t = store.table('d');
      await t.create(schema);
      for (let b = 0; b < 3; b++) await t.insert(Array.from({ length: 1000 }, (_, i) => ({ id: b * 1000 + i })));
      await t.transaction(async (tx) => expect(await tx.delete('id % 11 == 0')).toBe(273));
      await t.transaction(async (tx) => {
        expect(await tx.delete('id % 13 == 0')).toBe(231 - 21); // multiples of 143 went already
        expect(await tx.delete('id % 17 == 1')).toBe(177 - 29); // some deleted already (by either): encoded at commit
      });
      const deleted = (id: number) => id % 11 === 0 || id % 13 === 0 || id % 17 === 1; // under a quarter: no rewrite
      expect(await t.select().count()).toBe(3000 - [...Array(3000).keys()].filter(deleted).length);
      await store.close();
      const meta = await openLmdbMetaStore(join(dir.path, 'meta'));
      // partitions in insert order hold ids 0..999, 1000..1999, 2000..2999
      const bySeq = meta.range<{ id: string; seq: number }>('p/').sort((a, b) => a[1].seq - b[1].seq);
      const first = new Map(bySeq.map(([, p], k) => [p.id, 1000 * k]));
      const ids = meta.range<DeleteRecord>('d/').flatMap(([, r]) => [...decodePositions(r.rows)].map((row) => first.get(r.part)! + row));
      await meta.close();
      expect(bySeq.length).toBe(3);
      expect(ids.sort((a, b) => a - b)).toEqual([...Array(3000).keys()].filter(deleted));
    } finally {
      await dir.remove();
    }
  });
});

describe('positions of a deletion bitmap', () => {
  it('are the set bits below the row count, ascending, for aligned and unaligned bitmaps; survivors the clear ones; countSet counts them', () => {
    const arb = fc.record({ rows: fc.integer({ min: 0, max: 300 }), set: fc.array(fc.nat(340)), shift: fc.integer({ min: 0, max: 3 }) });
    fc.assert(
      fc.property(arb, ({ rows, set, shift }) => {
        const whole = emptyBits(rows + 40 + 8 * shift);
        const bits = whole.subarray(shift); // shift > 0: a view not on a word boundary
        for (const r of set) if (r < bits.length * 8) bits[r >> 3]! |= 1 << (r & 7);
        const want: number[] = [];
        for (let r = 0; r < rows; r++) if (isDeleted(bits, r)) want.push(r);
        expect([...positions(bits, rows, want.length)]).toEqual(want);
        // a smaller count stops early
        expect([...positions(bits, rows, want.length >> 1)]).toEqual(want.slice(0, want.length >> 1));
        // the survivors are the other rows below the row count (bits past it ignored)
        const live: number[] = [];
        for (let r = 0; r < rows; r++) if (!isDeleted(bits, r)) live.push(r);
        expect([...survivors(bits, rows)]).toEqual(live);
        expect(countSet(bits, rows)).toBe(want.length);
      }),
      { numRuns: 300 },
    );
  });
});

describe('markRows', () => {
  it('sets every bit, keeps in order exactly the rows whose bit was clear, and counts them', () => {
    const length = 300;
    const rowSet = fc.uniqueArray(fc.integer({ min: 0, max: length - 1 }), { maxLength: length }).map((r) => r.sort((a, b) => a - b));
    fc.assert(
      fc.property(rowSet, rowSet, (before, rows) => {
        const bits = emptyBits(length);
        for (const r of before) bits[r >> 3]! |= 1 << (r & 7);
        const given = Int32Array.from(rows);
        const n = markRows(bits, given);
        const fresh = rows.filter((r) => !before.includes(r));
        expect(n).toBe(fresh.length);
        expect([...given.subarray(0, n)]).toEqual(fresh);
        for (let r = 0; r < length; r++) expect(isDeleted(bits, r)).toBe(before.includes(r) || rows.includes(r));
      }),
    );
  });

  it('markRun sets the bits of rows from `from` up to the first already set, and says where it stopped', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 300 }).chain((length) =>
          fc.tuple(
            fc.constant(length),
            fc.uniqueArray(fc.integer({ min: 0, max: length - 1 }), { maxLength: length }).map((a) => a.sort((x, y) => x - y)),
            fc.uniqueArray(fc.integer({ min: 0, max: length - 1 }), { maxLength: 20 }),
            fc.nat(),
          ),
        ),
        ([length, rows, before, start]) => {
          const bits = emptyBits(length);
          for (const r of before) bits[r >> 3]! |= 1 << (r & 7);
          const from = rows.length === 0 ? 0 : start % (rows.length + 1);
          const stop = markRun(bits, Int32Array.from(rows), from);
          // brute force: the first row at or after `from` already deleted, or the end
          let expected = from;
          while (expected < rows.length && !before.includes(rows[expected]!)) expected++;
          expect(stop).toBe(expected);
          const marked = rows.slice(from, expected);
          for (let r = 0; r < length; r++) expect(isDeleted(bits, r)).toBe(before.includes(r) || marked.includes(r));
        },
      ),
    );
  });
});
