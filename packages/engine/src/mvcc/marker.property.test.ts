// Row markers of a replace: any mix of single marks and runs, over rows partly deleted already, records exactly the rows it deleted.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { StoreContext } from '../context.js';
import type { Snapshot } from '../read/snapshot.js';
import type { PartRecord } from '../storage/records.js';
import { TxState } from './tx-state.js';

const ROWS = 200;
const part = { id: 'p1', rows: ROWS } as PartRecord;

describe('row markers', () => {
  it('record each row they delete once, skip rows deleted before, and count them', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: ROWS - 1 }), { maxLength: 80 }),
        fc.uniqueArray(fc.integer({ min: 0, max: ROWS - 1 }), { maxLength: 40 }),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 40 }),
        (matched, before, steps) => {
          const rows = Int32Array.from(matched.sort((a, b) => a - b));
          const base = { deleted: new Map(), record: { id: 't' } } as unknown as Snapshot;
          const state = new TxState({} as StoreContext, base);
          state.markDeleted(part, Int32Array.from(before.sort((a, b) => a - b))); // deleted earlier in the transaction
          const marker = state.marker(part, rows);
          const marked: number[] = [];
          // walk the rows: a step either marks one row or a whole run
          let i = 0;
          for (let s = 0; i < rows.length; s++) {
            if (steps[s % steps.length]) {
              if (marker.markAt(i)) marked.push(rows[i]!);
              i++;
            } else {
              const hi = marker.markRun(i);
              marked.push(...rows.subarray(i, hi));
              i = hi + 1; // rows[hi] was deleted already
            }
            if (s % 7 === 3) i += 1; // some rows are never reached
          }
          const fresh = matched.filter((r) => !before.includes(r));
          expect(marked.every((r) => fresh.includes(r))).toBe(true);
          const deletes = state.deletes();
          const recorded = [...(deletes.find((d) => d.part === 'p1')?.rows ?? [])];
          expect(recorded).toEqual([...new Set([...before, ...marked])].sort((a, b) => a - b));
          for (const r of rows) expect(state.isDeleted(part, r)).toBe(before.includes(r) || marked.includes(r));
        },
      ),
    );
  });
});
