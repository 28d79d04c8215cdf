// Tier merges on the part writer thread: the same leaves, rows and forwards as inline, nothing left behind when a leaf fails, no splitting on the caller's thread.
import { readdirSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { Field, Float64, Int32, Int64, Schema, Utf8, makeVector, vectorFromArray } from 'apache-arrow';
import { describe, expect, it, vi } from 'vitest';
import type { StoreContext } from '../context.js';
import { openStore } from '../index.js';
import { loadColumn } from '../read/load.js';
import { openSnapshot } from '../read/snapshot.js';
import { writeFileDurably } from '../storage/localfs.js';
import { tempDir } from '../test-util/tmp.js';
import { kdSplit } from './kd-split.js';
import { compactOnce } from './compact.js';
import { removeParts } from './partition.js';
import { encodeSchema } from '../schema/serialize.js';
import { writeLeaves } from './tier-task.js';
import { type TierWrite, writeTier } from './tiers.js';

// counts the caller's thread's k-d splits (the writer thread has modules of its own)
vi.mock('./kd-split.js', async (original) => {
  const m = await original<typeof import('./kd-split.js')>();
  return { ...m, kdSplit: vi.fn(m.kdSplit) };
});

const indexed = new Map([['index', 'true']]);
const schema = new Schema([
  new Field('id', new Int32(), false),
  new Field('d', new Float64(), true, indexed),
  new Field('t', new Int64(), false, indexed),
  new Field('name', new Utf8(), true),
]);

type Row = { id: number; d: number | null; t: bigint; name: string | null };
const ctxOf = (store: Awaited<ReturnType<typeof openStore>>) => (store as unknown as { ctx: StoreContext }).ctx;
// the store's context with some fields replaced (its methods and getters inherited)
const variant = (ctx: StoreContext, fields: Partial<Pick<StoreContext, 'partWriter' | 'options'>>): StoreContext =>
  Object.create(ctx, Object.fromEntries(Object.entries(fields).map(([k, value]) => [k, { value }]))) as StoreContext;
const text = (v: unknown) => JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? `${x}n` : Number.isNaN(x) ? 'NaN' : x));

// what a tier merge made, without its random ids: each leaf's layout and rows, the forwards by leaf index
async function shape(ctx: StoreContext, w: TierWrite) {
  const ids = w.written.map((p) => p.id);
  const leaves = await Promise.all(
    w.written.map(async (p) => ({
      rows: p.rows,
      level: p.level,
      seq: p.seq,
      sortedBy: p.sortedBy,
      zones: p.zones,
      segments: p.segments,
      data: text(await Promise.all(schema.fields.map(async (f) => [...makeVector(await loadColumn(ctx, p, f.name, false))]))),
    })),
  );
  const forwards = w.forwards.map((f) => ({ ...f, to: f.to === null ? null : ids.indexOf(f.to), split: f.split && { ...f.split, to: f.split.to.map((id) => ids.indexOf(id)) } }));
  return { leaves, forwards };
}

describe('tier merges on the part writer thread', () => {
  it('write the same leaves, rows and forwards as inline, with deleted rows dropped', async () => {
    const dir = await tempDir();
    // large partitions: the deltas stay unmerged; the merges below cut them into leaves of 10
    const store = await openStore({ path: dir.path, workers: 1, partitionRows: 100_000, compactRun: 1000 });
    const ctx = ctxOf(store);
    const inline = variant(ctx, { partWriter: null });
    let n = 0;
    try {
      const row = fc.record({
        d: fc.oneof(fc.constant(null), fc.constant(Number.NaN), fc.integer({ min: -5, max: 5 }), fc.double({ min: -1e6, max: 1e6, noNaN: true })),
        t: fc.bigInt({ min: 0n, max: 1000n }),
        name: fc.option(fc.string({ maxLength: 4 })),
      });
      await fc.assert(
        fc.asyncProperty(fc.array(fc.array(row, { minLength: 1, maxLength: 40 }), { minLength: 1, maxLength: 4 }), fc.integer({ min: 1, max: 5 }), fc.integer({ min: 0, max: 4 }), async (deltas, m, r) => {
          const t = store.table(`t${n++}`);
          await t.create(schema);
          let id = 0;
          for (const delta of deltas) await t.insert(delta.map((x): Row => ({ id: id++, ...x })));
          await t.transaction(async (tx) => void (await tx.delete(`id % ${m} = ${r % m}`)));
          await store.idle();
          const snap = openSnapshot(ctx, t.name);
          try {
            const pick = { inputs: snap.parts, level: 2 };
            const small = (c: StoreContext) => variant(c, { options: { ...c.options, partitionRows: 40 } });
            const [a, b] = [await writeTier(small(ctx), snap, pick), await writeTier(small(inline), snap, pick)];
            try {
              expect(await shape(ctx, a)).toEqual(await shape(ctx, b));
              expect(a.written.reduce((s, p) => s + p.rows, 0)).toBe(id - Math.ceil((id - (r % m)) / m));
            } finally {
              await removeParts(ctx, [...a.written, ...b.written]);
            }
          } finally {
            snap.release();
          }
        }),
        { numRuns: 25 },
      );
    } finally {
      await store.close();
      await dir.remove();
    }
  }, 120_000);

  it('split on the thread when the store has a part writer, on the caller\'s thread when not', async () => {
    for (const workers of [1, 0]) {
      const dir = await tempDir();
      const store = await openStore({ path: dir.path, workers, partitionRows: 40, compactRun: 1000 });
      try {
        const t = store.table('obs');
        await t.create(schema);
        vi.mocked(kdSplit).mockClear();
        // more rows than a leaf (10): merged into a run of k-d leaves
        await t.insert(Array.from({ length: 35 }, (_, i): Row => ({ id: i, d: (i * 7) % 11, t: BigInt(i), name: null })));
        await store.idle();
        const snap = openSnapshot(ctxOf(store), 'obs');
        snap.release();
        expect(snap.parts.length).toBeGreaterThan(1);
        expect(snap.parts.every((p) => p.level === 1 && p.sortedBy === 'd')).toBe(true);
        expect(vi.mocked(kdSplit).mock.calls.length > 0).toBe(workers === 0);
      } finally {
        await store.close();
        await dir.remove();
      }
    }
  }, 30_000);

  it('removes every leaf it wrote when one fails, and throws that failure', async () => {
    const dir = await tempDir();
    try {
      const rows = 50;
      const columns = [
        makeVector(Int32Array.from({ length: rows }, (_, i) => i)).data[0]!,
        makeVector(Float64Array.from({ length: rows }, (_, i) => (i * 13) % 50)).data[0]!,
        makeVector(BigInt64Array.from({ length: rows }, (_, i) => BigInt(i))).data[0]!,
        vectorFromArray(Array.from({ length: rows }, (_, i) => `r${i}`), new Utf8()).data[0]!,
      ];
      // two inputs of 20 and 30 rows (writeLeaves reads only their row counts: the columns are given)
      const inputs = [20, 30].map((n, i) => ({ file: `in${i}`, rows: n, segments: [] }));
      const task = { root: dir.path, table: 'tbl', token: 'tok', schema: encodeSchema(schema), inputs, split: { leafRows: 10, spans: {} } };
      let writes = 0;
      const failThird = (root: string, file: string, chunks: readonly Uint8Array[]) => {
        if (++writes === 3) throw new Error('disk full');
        writeFileDurably(root, file, chunks);
      };
      await expect(writeLeaves(task, schema, columns, failThird)).rejects.toThrow('disk full');
      expect(writes).toBe(3);
      expect(readdirSync(join(dir.path, 'parts', 'tbl'))).toEqual([]);
      // the same task without the failure writes every leaf (8 of 6 or 7 rows: median splits of 50)
      const done = await writeLeaves(task, schema, columns);
      expect(done.parts.length).toBeGreaterThan(3);
      expect(done.parts.every((p) => p.rows <= 10)).toBe(true);
      expect(done.parts.reduce((n, p) => n + p.rows, 0)).toBe(rows);
      // where each input's rows went: every leaf gets its rows, the second input's counted on top of the first's
      const { wide, maps } = done.moved;
      expect(wide).toBe(false);
      expect(maps.map((m) => m.leaf.length)).toEqual([20, 30]);
      const perLeaf = (m: (typeof maps)[number]) => done.parts.map((_, L) => m.leaf.filter((l) => l === L).length);
      expect(maps[0]!.base).toEqual(done.parts.map(() => 0));
      expect(maps[1]!.base).toEqual(perLeaf(maps[0]!));
      expect(perLeaf(maps[0]!).map((n, L) => n + perLeaf(maps[1]!)[L]!)).toEqual(done.parts.map((p) => p.rows));
      expect(readdirSync(join(dir.path, 'parts', 'tbl')).sort()).toEqual(done.parts.map((p) => p.file.split('/').pop()).sort());
    } finally {
      await dir.remove();
    }
  });

  it('commits nothing and leaves no file when the thread\'s merge fails, and reports the damaged input', async () => {
    const dir = await tempDir();
    const reports: Error[] = [];
    const store = await openStore({ path: dir.path, workers: 1, partitionRows: 100_000, compactRun: 1000, onBackgroundError: (e) => reports.push(e) });
    try {
      const ctx = ctxOf(store);
      const t = store.table('obs');
      await t.create(schema);
      for (let b = 0; b < 3; b++) await t.insert(Array.from({ length: 20 }, (_, i): Row => ({ id: b * 20 + i, d: i, t: BigInt(i), name: 'x' })));
      await store.idle();
      const before = openSnapshot(ctx, 'obs');
      before.release();
      const folder = join(dir.path, before.parts[0]!.file, '..');
      const files = readdirSync(folder).sort();
      truncateSync(join(dir.path, before.parts[2]!.file), 40); // the last input is damaged
      // a merge of more than a leaf's rows (partitionRows 40: leaves of 10)
      // (a damaged input is left out of compaction from then on: the step counts as done)
      expect(await compactOnce(variant(ctx, { options: { ...ctx.options, partitionRows: 40 } }), 'obs', before.record.id)).toBe(true);
      expect(reports).toEqual([expect.objectContaining({ code: 'Corrupt', path: before.parts[2]!.file })]);
      expect([...ctx.damaged]).toEqual([before.parts[2]!.file]);
      const after = openSnapshot(ctx, 'obs');
      after.release();
      expect(after.record.version).toBe(before.record.version);
      expect(after.parts.map((p) => p.id)).toEqual(before.parts.map((p) => p.id));
      expect(readdirSync(folder).sort()).toEqual(files);
    } finally {
      await store.close();
      await dir.remove();
    }
  }, 30_000);
});
