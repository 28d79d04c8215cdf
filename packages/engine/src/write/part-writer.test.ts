// The part writer thread: partition files it writes (appends, compaction merges) read back like inline ones.
import { readFileSync, readdirSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { Bool, type Data, Field, Float64, Int64, Int32, Schema, Utf8, makeData, makeVector, tableFromArrays, vectorFromArray } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import type { StoreContext } from '../context.js';
import { openStore } from '../index.js';
import { cacheKey, loadColumn } from '../read/load.js';
import { liveRows, openSnapshot } from '../read/snapshot.js';
import { zoneStats } from '../storage/zonemap.js';
import { tempDir } from '../test-util/tmp.js';
import { WRITER_NICE, joinUnshared, share, sharedData } from './part-writer.js';
import { MIN_POOLED } from './shared-pool.js';
import { mergeParts } from './partition.js';

const schema = new Schema([
  new Field('id', new Int32(), false),
  new Field('v', new Float64(), true),
  new Field('name', new Utf8(), true),
  new Field('flag', new Bool(), true),
  new Field('big', new Int64(), true),
  new Field('geom', new Utf8(), true, new Map([['class', 'geometry']])),
]);

const row = (id: number) => ({
  id,
  v: id % 9 === 0 ? null : id % 13 === 0 ? Number.NaN : Math.sin(id) * 100,
  name: id % 5 === 0 ? null : `n${(id * 7919) % 101}`,
  flag: id % 4 === 0 ? null : id % 3 === 0,
  big: id % 6 === 0 ? null : BigInt(id) * 10_000_000_000n - 5n,
  geom: id % 7 === 0 ? null : id % 2 ? `POINT (${id % 180} ${id % 90})` : `LINESTRING (0 0, ${id % 180} ${id % 90})`,
});

// every row as a comparable string (NaN and bigint survive)
const rows = async (t: ReturnType<Awaited<ReturnType<typeof openStore>>['table']>) =>
  (await t.select(undefined, { cols: ['id', 'v', 'name', 'flag', 'big', 'geom'] }).all()).map((r) => JSON.stringify(r, (_k, v) => (typeof v === 'bigint' ? `${v}n` : Number.isNaN(v) ? 'NaN' : v)));

describe('joinUnshared', () => {
  it('joins a column\'s chunks into buffers from the allocator when any is not in shared memory, and leaves shared or lone ones as they are', () => {
    const values = (from: number) => Array.from({ length: 2048 }, (_, i) => ((from + i) % 7 === 0 ? null : from + i));
    const floats = [0, 2048, 4096].map((from) => vectorFromArray(values(from), new Float64()).data[0]!);
    const texts = [0, 2048].map((from) => vectorFromArray(values(from).map((v) => (v === null ? null : `s${v}`)), new Utf8()).data[0]!);
    const asked: number[] = [];
    const alloc = (bytes: number) => (asked.push(bytes), new SharedArrayBuffer(bytes));
    for (const [type, chunks] of [[new Float64(), floats], [new Utf8(), texts]] as const) {
      asked.length = 0;
      const joined = joinUnshared(type, chunks, alloc);
      expect(joined).toHaveLength(1);
      const [one] = joined;
      expect(one!.length).toBe(chunks.length * 2048);
      expect([one!.values, one!.nullBitmap, ...(one!.valueOffsets ? [one!.valueOffsets] : [])].every((b) => (b as ArrayBufferView).buffer instanceof SharedArrayBuffer)).toBe(true);
      expect(asked.length).toBeGreaterThan(0); // every buffer from the allocator
      const values = (d: Data) => [...makeVector(d as Data<Float64>)];
      expect(values(one!)).toEqual(chunks.flatMap(values));
    }
    // already shared, or one chunk: as they are (share() copies a lone unshared one)
    const shared = floats.map((c) => sharedData(c));
    expect(joinUnshared(new Float64(), shared, alloc)).toBe(shared);
    expect(joinUnshared(new Float64(), [floats[0]!], alloc)).toEqual([floats[0]]);
  });

  it('takes chunks without nulls, whose empty null bitmap apache-arrow leaves in ordinary memory, as shared: nothing is joined or copied', () => {
    // values in shared memory, as scan workers return matched rows (a batch replace's batches)
    const chunks = [0, 1, 2].map((k) => {
      const values = new Float64Array(new SharedArrayBuffer(8 * 1000));
      values.fill(k);
      return makeData({ type: new Float64(), length: 1000, nullCount: 0, data: values });
    });
    expect(chunks[0]!.nullBitmap).toBeInstanceOf(Uint8Array);
    expect(chunks[0]!.nullBitmap!.buffer).not.toBeInstanceOf(SharedArrayBuffer);
    const asked: number[] = [];
    const alloc = (bytes: number) => (asked.push(bytes), new SharedArrayBuffer(bytes));
    expect(joinUnshared(new Float64(), chunks, alloc)).toBe(chunks);
    // posted as they are: the values keep their shared buffer, the empty bitmap needs no copy
    const posted = share(chunks[1]!, false, alloc);
    expect(posted.buffers[1]).toBe(chunks[1]!.values);
    expect(asked).toEqual([]);
    // a copy asked for still copies the values (never the empty bitmap)
    const copied = share(chunks[1]!, true, alloc);
    expect(copied.buffers[1]).not.toBe(chunks[1]!.values);
    expect([...(copied.buffers[1] as Float64Array)]).toEqual([...chunks[1]!.values]);
    expect(asked).toEqual([8 * 1000]);
    // a chunk with an ordinary (non-empty) buffer is still joined
    const plain = makeData({ type: new Float64(), length: 1000, nullCount: 0, data: new Float64Array(1000) });
    expect(joinUnshared(new Float64(), [...chunks, plain], alloc)).toHaveLength(1);
  });
});

describe('part writer', () => {
  it('writes appends and compaction merges that read back like inline writes, zone maps included', async () => {
    const dirs = [await tempDir(), await tempDir()];
    try {
      const out: string[][] = [];
      for (const [k, workers] of [1, 0].entries()) {
        const store = await openStore({ path: dirs[k]!.path, workers, partitionRows: 200, compactRun: 3, inlineRows: 1 });
        const t = store.table('obs');
        await t.create(schema);
        for (let b = 0; b < 12; b++) await t.insert(Array.from({ length: 20 }, (_, i) => row(b * 20 + i)));
        await store.idle(); // background merges
        const ctx = (store as unknown as { ctx: StoreContext }).ctx;
        expect(ctx.partWriter !== null && ctx.partWriter !== undefined).toBe(workers > 0);
        const snap = openSnapshot(ctx, 'obs');
        try {
          expect(snap.parts.length).toBeLessThan(12); // merged
          expect(snap.parts.reduce((n, p) => n + p.rows, 0)).toBe(240);
          for (const p of snap.parts) {
            // zone maps (merged from the inputs' or computed on the thread) equal a pass over the stored rows
            for (const f of snap.schema.fields) expect(p.zones[f.name], `${p.id} ${f.name}`).toEqual(zoneStats(await loadColumn(ctx, p, f.name, false)));
            const boxes = Object.keys(p.zones).filter((n) => n.startsWith('geom\u0000'));
            expect(boxes).toHaveLength(4); // the geometry's box columns were derived on the thread too
            for (const hidden of boxes) {
              expect(p.zones[hidden]).toEqual(zoneStats(await loadColumn(ctx, p, hidden, false)));
            }
          }
        } finally {
          snap.release();
        }
        out.push(await rows(t));
        await store.close();
        // nothing but committed partition files
        const files = readdirSync(`${dirs[k]!.path}/parts`, { recursive: true }).map(String);
        expect(files.filter((f) => f.endsWith('.tmp'))).toEqual([]);
      }
      expect(out[0]).toEqual(out[1]);
      expect(out[0]).toEqual(Array.from({ length: 240 }, (_, i) => i).map((i) => JSON.stringify(row(i), (_k, v) => (typeof v === 'bigint' ? `${v}n` : Number.isNaN(v) ? 'NaN' : v))));
    } finally {
      for (const d of dirs) await d.remove();
    }
  }, 60_000);

  it('rewrites partitions with many deleted rows on the thread like inline: live rows in order, sorted leaves stay sorted, cached columns warm', async () => {
    const indexed = new Schema([new Field('d', new Float64(), true, new Map([['index', 'true']])), ...schema.fields]);
    // d: a scatter with nulls and NaN (sorted last in a leaf)
    const [BATCHES, BATCH] = [6, 41];
    const d = (id: number) => (id % 17 === 0 ? null : id % 19 === 0 ? Number.NaN : ((id * 7919) % 240) / 2);
    const dirs = [await tempDir(), await tempDir()];
    try {
      const out: string[][] = [];
      for (const [k, workers] of [1, 0].entries()) {
        const store = await openStore({ path: dirs[k]!.path, workers, partitionRows: 160, compactRun: 2, inlineRows: 1 });
        try {
          const t = store.table('obs');
          await t.create(indexed);
          // each delta holds more rows than a leaf (40), so it is merged even when it lands alone
          for (let b = 0; b < BATCHES; b++) await t.insert(Array.from({ length: BATCH }, (_, i) => ({ d: d(b * BATCH + i), ...row(b * BATCH + i) })));
          await store.idle(); // merged into sorted k-d leaves
          const ctx = (store as unknown as { ctx: StoreContext }).ctx;
          const before = openSnapshot(ctx, 'obs');
          before.release();
          expect(before.parts.every((p) => p.sortedBy === 'd')).toBe(true);
          // a band and a scatter: more than a quarter of some leaves
          await t.transaction(async (tx) => {
            await tx.delete('d >= 20 and d < 45');
            await tx.delete('id % 3 = 0');
          });
          await store.idle(); // rewrites
          const snap = openSnapshot(ctx, 'obs');
          try {
            // every partition with more than a quarter of its rows deleted was rewritten without them
            expect(snap.parts.filter((p) => !before.parts.some((b) => b.id === p.id)).length).toBeGreaterThan(0);
            for (const p of snap.parts) {
              expect(p.rows - liveRows(snap, p), p.id).toBeLessThanOrEqual(p.rows / 4);
              expect(p.sortedBy, p.id).toBe('d');
              // the scatter delete read id of every partition through the cache: their successors have it cached too
              expect(ctx.cache.get(`${p.id}/id`), p.id).toBeDefined();
              const data = await loadColumn(ctx, p, 'd', false);
              const values = Array.from(data.values as Float64Array).slice(0, data.length);
              const keys = values.map((v, i) => (data.getValid(i) && !Number.isNaN(v) ? v : Number.POSITIVE_INFINITY));
              expect(keys, p.id).toEqual([...keys].sort((a, b) => a - b));
              for (const f of snap.schema.fields) expect(p.zones[f.name], `${p.id} ${f.name}`).toEqual(zoneStats(await loadColumn(ctx, p, f.name, false)));
            }
          } finally {
            snap.release();
          }
          out.push((await rows(t)).sort());
        } finally {
          await store.close();
        }
      }
      expect(out[0]).toEqual(out[1]);
      const kept = Array.from({ length: BATCHES * BATCH }, (_, i) => i).filter((i) => i % 3 !== 0 && !((d(i) ?? -1) >= 20 && (d(i) ?? -1) < 45));
      expect(out[0]).toEqual(kept.map((i) => JSON.stringify(row(i), (_k, v) => (typeof v === 'bigint' ? `${v}n` : Number.isNaN(v) ? 'NaN' : v))).sort());
    } finally {
      for (const dir of dirs) await dir.remove();
    }
  }, 60_000);

  it.runIf(process.platform === 'linux')('runs on a thread of its own below normal priority', async () => {
    const dir = await tempDir();
    const store = await openStore({ path: dir.path, workers: 1 });
    try {
      const t = store.table('obs');
      await t.create(schema);
      await t.insert([row(1)]); // the thread has started and lowered its priority
      // field 19 of /proc/<pid>/task/<tid>/stat is the nice value (after the parenthesised name)
      const niceOf = (tid: string) => Number(readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1]!.split(' ')[16]);
      const nice = readdirSync('/proc/self/task').map(niceOf);
      // the process's own priority, not 0: the tests may run under `nice` (soak runs do)
      const base = niceOf(String(process.pid));
      expect(base).toBeLessThan(WRITER_NICE);
      expect(nice.filter((n) => n === WRITER_NICE)).toHaveLength(1);
      expect(nice.filter((n) => n === base).length).toBeGreaterThan(1); // the main thread and the scan worker
    } finally {
      await store.close();
      await dir.remove();
    }
  });

  it('caches the columns of a delta that readers keep cached, as written, copied from the caller\'s buffers', async () => {
    const dir = await tempDir();
    const store = await openStore({ path: dir.path, workers: 1, compactRun: 100 });
    try {
      const t = store.table('obs');
      await t.create(new Schema([new Field('id', new Int32(), false), new Field('v', new Float64(), false)]));
      const ctx = (store as unknown as { ctx: StoreContext }).ctx;
      const cached = (column: string) => {
        const snap = openSnapshot(ctx, 'obs');
        try {
          return snap.parts.map((p) => ctx.cache.has(`${p.id}/${column}`));
        } finally {
          snap.release();
        }
      };
      const v = new Float64Array(100).fill(0.5);
      await t.insert(tableFromArrays({ id: new Int32Array(100).map((_, i) => i), v }));
      // no reader has cached a column of the table yet: nothing is warmed
      expect([...cached('id'), ...cached('v')]).toEqual([false, false]);
      expect(await t.select('id >= 50').count()).toBe(50); // a count reads (and caches) `id` only
      expect([...cached('id'), ...cached('v')]).toEqual([true, false]);
      const ids = new Int32Array(new SharedArrayBuffer(4 * 100)).map((_, i) => 100 + i);
      await t.insert(tableFromArrays({ id: ids, v }));
      ids.fill(-1); // the caller reuses its buffer
      // the new delta's `id` is cached as written; `v`, which no reader keeps, is not
      expect(cached('id')).toEqual([true, true]);
      expect(cached('v')).toEqual([false, false]);
      expect(await t.select('id >= 50').count()).toBe(150);
      expect((await t.select('id >= 100 and id < 103').all()).map((r) => r.id)).toEqual([100, 101, 102]);
    } finally {
      await store.close();
      await dir.remove();
    }
  });

  it('copies appends into pooled buffers, reused by the next append and given back after each', async () => {
    const dir = await tempDir();
    // inlineRows 1: no delta is warmed into the cache, so every column goes through the pool
    const store = await openStore({ path: dir.path, workers: 1, compactRun: 100, inlineRows: 1 });
    try {
      const t = store.table('obs');
      await t.create(schema);
      const ctx = (store as unknown as { ctx: StoreContext }).ctx;
      const pool = ctx.partWriter!.buffers;
      const batch = (from: number, n: number) => Array.from({ length: n }, (_, i) => row(from + i));
      const acquired: SharedArrayBuffer[][] = [];
      const acquire = pool.acquire.bind(pool);
      pool.acquire = (bytes) => {
        const b = acquire(bytes);
        if (b.byteLength >= MIN_POOLED) acquired.at(-1)!.push(b);
        return b;
      };
      // 20k rows: the float and int64 columns (160 KB) are pooled, the small ones allocated
      acquired.push([]);
      await t.insert(batch(0, 20_000));
      const held = pool.bytesHeld;
      expect(held).toBe(acquired[0]!.reduce((n, b) => n + b.byteLength, 0)); // all given back once written
      expect(held).toBeGreaterThan(0);
      // same shape, fewer rows: the same buffers again, holding other values over part of their length
      acquired.push([]);
      await t.insert(batch(20_000, 18_000));
      expect(new Set(acquired[1])).toEqual(new Set(acquired[0]));
      expect(pool.bytesHeld).toBe(held);
      const all = await rows(t);
      expect(all).toEqual(batch(0, 38_000).map((r) => JSON.stringify(r, (_k, v) => (typeof v === 'bigint' ? `${v}n` : Number.isNaN(v) ? 'NaN' : v))));
    } finally {
      await store.close();
      await dir.remove();
    }
  });

  it('answers a damaged merge input with Corrupt naming the file', async () => {
    const dir = await tempDir();
    const store = await openStore({ path: dir.path, workers: 1, compactRun: 100 });
    try {
      const t = store.table('obs');
      await t.create(new Schema([new Field('id', new Int32(), false)]));
      for (let b = 0; b < 2; b++) await t.insert(tableFromArrays({ id: Int32Array.from({ length: 50 }, (_, i) => b * 50 + i) }));
      const ctx = (store as unknown as { ctx: StoreContext }).ctx;
      const snap = openSnapshot(ctx, 'obs');
      try {
        const damaged = snap.parts[1]!;
        truncateSync(join(dir.path, damaged.file), 64);
        const e = await mergeParts(ctx, ctx.partWriter!, 'obs', snap.schema, snap.parts, {}).catch((x: unknown) => x);
        expect(e).toMatchObject({ code: 'Corrupt', path: damaged.file });
        expect((e as Error).message).toContain(damaged.file);
      } finally {
        snap.release();
      }
    } finally {
      await store.close();
      await dir.remove();
    }
  });

  it('merges that reuse the thread\'s pooled buffers (dirty, of other sizes) read back every row', async () => {
    const dir = await tempDir();
    const store = await openStore({ path: dir.path, workers: 1, partitionRows: 400, compactRun: 2, inlineRows: 1 });
    try {
      const t = store.table('obs');
      await t.create(schema);
      // deltas of changing sizes, merged again and again: each merge reads and joins in buffers an earlier one left dirty
      let id = 0;
      for (const n of [30, 30, 70, 70, 25, 25, 90, 90, 40, 40, 60, 60]) {
        await t.insert(Array.from({ length: n }, () => row(id++)));
        if (n % 3 === 0) await store.idle();
      }
      await t.transaction((tx) => tx.delete('id % 11 == 0')); // rewrites drop rows through the same buffers
      await store.idle();
      const ctx = (store as unknown as { ctx: StoreContext }).ctx;
      const snap = openSnapshot(ctx, 'obs');
      try {
        expect(snap.parts.length).toBeLessThan(12);
      } finally {
        snap.release();
      }
      const expected = Array.from({ length: id }, (_, i) => i).filter((i) => i % 11 !== 0);
      expect((await rows(t)).sort()).toEqual(expected.map((i) => JSON.stringify(row(i), (_k, v) => (typeof v === 'bigint' ? `${v}n` : Number.isNaN(v) ? 'NaN' : v))).sort());
    } finally {
      await store.close();
      await dir.remove();
    }
  }, 30_000);

  it('puts the columns the cache held for a merge\'s inputs in the cache as the thread wrote them, without reading the new file', async () => {
    const dir = await tempDir();
    const store = await openStore({ path: dir.path, workers: 1, compactRun: 4 });
    try {
      const t = store.table('obs');
      await t.create(schema);
      const ctx = (store as unknown as { ctx: StoreContext }).ctx;
      await t.insert(Array.from({ length: 50 }, (_, i) => row(i)));
      expect(await t.select('v > 0').count()).toBeGreaterThan(0); // readers keep `v` cached
      const first = openSnapshot(ctx, 'obs');
      const box = Object.keys(first.parts[0]!.zones).find((n) => n.startsWith('geom\u0000'))!;
      await loadColumn(ctx, first.parts[0]!, box); // and a derived box column (which the thread does not send back)
      first.release();
      const reads: { path: string; offset: number }[] = [];
      const read = ctx.blobs.read.bind(ctx.blobs);
      ctx.blobs.read = (path, offset, into) => (reads.push({ path, offset }), read(path, offset, into));
      for (let b = 1; b < 4; b++) await t.insert(Array.from({ length: 50 }, (_, i) => row(b * 50 + i)));
      await store.idle(); // the four deltas merge into one partition
      const snap = openSnapshot(ctx, 'obs');
      try {
        expect(snap.parts).toHaveLength(1);
        const merged = snap.parts[0]!;
        const readAt = (column: string) => reads.filter((r) => r.path === merged.file && r.offset === merged.segments.find((g) => g.name === column)!.offset);
        expect(ctx.cache.has(`${merged.id}/v`)).toBe(true);
        expect(readAt('v')).toEqual([]); // sent back by the thread, not read
        expect(ctx.cache.has(`${merged.id}/name`)).toBe(false); // no reader kept it
        expect(ctx.cache.has(cacheKey(merged, box))).toBe(true); // derived: read back from the new file
        expect(readAt(box).length).toBeGreaterThan(0);
        // what the cache holds is what the file holds
        const cached = await loadColumn(ctx, merged, 'v');
        ctx.cache.dropPart(merged.id);
        const fromFile = await loadColumn(ctx, merged, 'v', false);
        expect(readAt('v').length).toBeGreaterThan(0);
        expect(cached.nullCount).toBe(fromFile.nullCount);
        expect([...new Uint8Array(cached.values.buffer, cached.values.byteOffset, cached.values.byteLength)]).toEqual([
          ...new Uint8Array(fromFile.values.buffer, fromFile.values.byteOffset, fromFile.values.byteLength),
        ]);
      } finally {
        snap.release();
      }
      expect(await t.select('v > 0').count()).toBe(Array.from({ length: 200 }, (_, i) => row(i).v).filter((v) => v !== null && v > 0).length);
    } finally {
      await store.close();
      await dir.remove();
    }
  });
  it('converts many row objects into pooled memory the thread reads as it is, the same buffers from one insert to the next', async () => {
    const dir = await tempDir();
    const store = await openStore({ path: dir.path, workers: 1, compactRun: 100 });
    try {
      const t = store.table('obs');
      await t.create(schema);
      const pool = (store as unknown as { ctx: StoreContext }).ctx.partWriter!.buffers;
      const handed: SharedArrayBuffer[][] = [];
      const acquire = pool.acquire.bind(pool);
      pool.acquire = (bytes) => {
        const b = acquire(bytes);
        handed[handed.length - 1]!.push(b);
        return b;
      };
      const n = MIN_POOLED / 8; // the fewest rows that convert into pooled memory
      const insert = async (from: number, last?: Record<string, unknown>) => {
        handed.push([]);
        const batch = Array.from({ length: n }, (_, i) => row(from + i));
        if (last) batch[n - 1] = { ...batch[n - 1]!, ...last };
        await t.insert(batch);
      };
      await insert(0);
      const held = pool.bytesHeld;
      expect(held).toBeGreaterThan(0); // back in the pool once written
      await insert(n);
      expect(handed[0]!.filter((b) => b.byteLength >= MIN_POOLED).length).toBeGreaterThan(0);
      for (const b of handed[1]!) if (b.byteLength >= MIN_POOLED) expect(handed[0]).toContain(b);
      expect(pool.bytesHeld).toBe(held);
      // a bad value at the last row: nothing written, the buffers back all the same
      await expect(insert(2 * n, { v: 'deep' })).rejects.toMatchObject({ code: 'InvalidData', row: n - 1, column: 'v' });
      expect(pool.bytesHeld).toBe(held);
      const expected = Array.from({ length: 2 * n }, (_, i) => JSON.stringify(row(i), (_k, v) => (typeof v === 'bigint' ? `${v}n` : Number.isNaN(v) ? 'NaN' : v))).sort();
      expect((await rows(t)).sort()).toEqual(expected);
      await store.close();
      const again = await openStore({ path: dir.path, workers: 1 });
      try {
        expect((await rows(again.table('obs'))).sort()).toEqual(expected);
      } finally {
        await again.close();
      }
    } finally {
      await store.close();
      await dir.remove();
    }
  }, 60_000);

  it('does not queue an insert behind a merge: a small one is written on the calling thread, a large one on a scan worker', async () => {
    const dir = await tempDir();
    const store = await openStore({ path: dir.path, workers: 1, compactRun: 1000 });
    try {
      const t = store.table('t');
      const flat = new Schema([new Field('id', new Int32(), false), new Field('v', new Float64(), true)]);
      await t.create(flat);
      const writer = (store as unknown as { ctx: StoreContext }).ctx.partWriter!;
      // what reaches the part writer's thread, and what a scan worker writes for it
      const onThread: number[] = [];
      const onHelper: number[] = [];
      const write = writer.write.bind(writer);
      const writeChunks = writer.writeChunks.bind(writer);
      writer.write = (part) => (onThread.push(part.columns[0]!.length), write(part));
      writer.writeChunks = (part) => ((part.helper ? onHelper : onThread).push(part.chunks[0]!.reduce((n, c) => n + c.length, 0)), writeChunks(part));
      const batch = (from: number, n: number) => tableFromArrays({ id: Int32Array.from({ length: n }, (_, i) => from + i), v: Float64Array.from({ length: n }, (_, i) => from + i) });
      // the part writer idle: it writes both
      await t.insert(batch(0, 1000));
      await t.insert(batch(1000, 40_000));
      expect([onThread, onHelper]).toEqual([[1000, 40_000], []]);
      // the part writer merging (compaction) all along
      Object.defineProperty(writer, 'busyMerging', { get: () => true, configurable: true });
      await t.insert(batch(41_000, 1000));
      await t.insert(batch(42_000, 40_000));
      expect([onThread, onHelper]).toEqual([[1000, 40_000], [40_000]]); // the small one on this thread
      const ids = (await t.select(undefined, { cols: ['id'] }).all()).map((r) => r.id as number);
      expect(ids).toEqual(Array.from({ length: 82_000 }, (_, i) => i));
    } finally {
      await store.close();
      await dir.remove();
    }
  });
});
