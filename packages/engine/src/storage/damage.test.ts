// Damaged partition files: a byte changed anywhere in a column's segment makes every read of that
// column (queries, merges, alter) fail with Corrupt naming the file and the column, never a wrong
// answer; an alter over it leaves the store as it was, and compaction reports it once and leaves it
// out (merging the rest) instead of failing on it at every trigger.
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Bool, Field, Float64, Int64, Schema, Utf8 } from 'apache-arrow';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoreContext } from '../context.js';
import { type Store, isHaloclineError, openStore } from '../index.js';
import { openSnapshot } from '../read/snapshot.js';
import { expectNoOrphans } from '../test-util/orphans.js';
import { tempDir } from '../test-util/tmp.js';
import { compactOnce } from '../write/compact.js';
import { type SegmentRef, decodeFooter } from './format.js';

const schema = new Schema([
  new Field('id', new Int64(), false),
  new Field('depth', new Float64(), true),
  new Field('name', new Utf8(), true),
  new Field('ok', new Bool(), true),
  new Field('geom', new Utf8(), true, new Map([['class', 'geometry']])),
]);
const ROWS = 3000;
const row = (i: number) => ({ id: BigInt(i), depth: i % 9 === 0 ? null : i / 2, name: i % 7 === 0 ? null : `n${i % 400}`, ok: i % 3 === 0, geom: i % 11 === 0 ? null : `POINT (${(i % 300) - 150} ${(i % 160) - 80})` });
const box = (x0: number, y0: number, x1: number, y1: number) => `POLYGON ((${x0} ${y0}, ${x1} ${y0}, ${x1} ${y1}, ${x0} ${y1}, ${x0} ${y0}))`;

// reads of a stored column, each of which must read its segment: the column itself and a filter
// on it the zone maps cannot decide; a geometry's hidden box columns through a spatial filter
const reads: Record<string, ((s: Store) => Promise<unknown>)[]> = {
  id: [(s) => s.table('t').select(undefined, { cols: ['id'] }).all(), (s) => s.table('t').select('id > 1500', { cols: ['ok'] }).count()],
  depth: [(s) => s.table('t').select(undefined, { cols: ['depth'] }).all(), (s) => s.table('t').aggregate('ok', { aggr: { depth: 'sum' } })],
  name: [(s) => s.table('t').select(undefined, { cols: ['name'] }).all(), (s) => s.table('t').select('name == "n7"', { cols: ['id'] }).count()],
  ok: [(s) => s.table('t').select(undefined, { cols: ['ok'] }).all(), (s) => s.table('t').select('ok', { cols: ['id'] }).count()],
  geom: [(s) => s.table('t').select(undefined, { cols: ['geom'] }).all(), (s) => s.table('t').select(`geom intersect "${box(-50, -50, 40, 40)}"`, { cols: ['id'] }).count()],
  'geom\u0000xmin': [(s) => s.table('t').select(`geom ~ "${box(-50, -50, 40, 40)}"`, { cols: ['id'] }).count()],
  'geom\u0000ymin': [(s) => s.table('t').select(`geom ~ "${box(-50, -50, 40, 40)}"`, { cols: ['id'] }).count()],
};

describe('damaged partition files', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let file: string;
  let segments: readonly SegmentRef[];
  beforeAll(async () => {
    dir = await tempDir();
    const store = await openStore({ path: dir.path, workers: 0 });
    await store.table('t').create(schema);
    await store.table('t').insert(Array.from({ length: ROWS }, (_, i) => row(i)));
    await store.close();
    file = await onlyFile(dir.path);
    const footer = decodeFooter(await readFile(join(dir.path, file)), file);
    // a segment stored under two names (point boxes: xmax is xmin) is damaged once, by its first name
    segments = footer.columns.filter((s, i) => footer.columns.findIndex((o) => o.offset === s.offset) === i);
  });
  afterAll(() => dir.remove());

  it('has a checksum for every segment, and the boxes of points stored once', () => {
    expect(segments.map((s) => s.name)).toEqual(['id', 'depth', 'name', 'ok', 'geom', 'geom\u0000xmin', 'geom\u0000ymin']);
    for (const s of segments) expect(s.crc).toBeTypeOf('number');
  });

  it('reports Corrupt naming the file and the column on every read of a segment with any one byte changed', async () => {
    const path = join(dir.path, file);
    const clean = await readFile(path);
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: segments.length - 1 }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), fc.integer({ min: 1, max: 255 }), async (s, at, mask) => {
        const seg = segments[s]!;
        const damaged = Buffer.from(clean);
        damaged[seg.offset + Math.floor(at * seg.length)]! ^= mask;
        await writeFile(path, damaged);
        const store = await openStore({ path: dir.path, workers: 0 });
        try {
          for (const read of reads[seg.name]!) {
            const e = await read(store).then(() => undefined, (err: unknown) => err);
            expect(isHaloclineError(e, 'Corrupt'), `${seg.name}: ${String(e)}`).toBe(true);
            expect(e).toMatchObject({ path: file, column: seg.name.split('\u0000')[0] });
            expect((e as Error).message).toContain(`${file}: column "${seg.name.split('\u0000')[0]}"`);
          }
        } finally {
          await store.close();
          await writeFile(path, clean);
        }
      }),
      { numRuns: 25 },
    );
    // the file as written reads whole again
    const store = await openStore({ path: dir.path, workers: 0 });
    expect(await store.table('t').select(undefined, { cols: ['id'] }).count()).toBe(ROWS);
    await store.close();
  }, 120_000);

  it('leaves a damaged input out of compaction (reported once, the rest merged in order) and fails an alter over it, with the part writer and without', async () => {
    for (const workers of [0, 1]) {
      const d = await tempDir();
      try {
        let store = await openStore({ path: d.path, workers, partitionRows: 4000, compactRun: 100 });
        const t = store.table('t');
        await t.create(schema);
        for (let k = 0; k < 5; k++) await t.insert(Array.from({ length: 500 }, (_, i) => row(k * 500 + i)));
        let ctx = (store as unknown as { ctx: StoreContext }).ctx;
        const before = openSnapshot(ctx, 't');
        before.release();
        await store.close();
        // the second partition in row order: the ones after it can merge, the first cannot (alone)
        const victim = before.parts[1]!.file;
        const path = join(d.path, victim);
        const clean = await readFile(path);
        const seg = decodeFooter(clean, victim).columns.find((s) => s.name === 'name')!;
        const damaged = Buffer.from(clean);
        damaged[seg.offset + (seg.length >> 1)]! ^= 0x20;
        await writeFile(path, damaged);
        const reports: [Error, string][] = [];
        store = await openStore({ path: d.path, workers, partitionRows: 4000, compactRun: 2, onBackgroundError: (e, task) => reports.push([e, task]) });
        ctx = (store as unknown as { ctx: StoreContext }).ctx;
        const id = before.record.id;
        // the first step finds the damage (the run is the damaged partition and the three after it)
        expect(await compactOnce(ctx, 't', id)).toBe(true);
        expect(reports).toHaveLength(1);
        expect(reports[0]![0]).toMatchObject({ code: 'Corrupt', column: 'name', message: expect.stringContaining(victim) });
        expect(reports[0]![1]).toBe('compact t (the damaged file is left out of compaction from now on)');
        while (await compactOnce(ctx, 't', id));
        expect(reports).toHaveLength(1);
        const after = openSnapshot(ctx, 't');
        after.release();
        expect(after.parts.map((p) => p.rows)).toEqual([500, 500, 1500]);
        expect(after.parts.slice(0, 2).map((p) => p.file)).toEqual(before.parts.slice(0, 2).map((p) => p.file));
        // reads of the damaged column still fail naming the file, the others read every row
        expect(await store.table('t').select(undefined, { cols: ['id'] }).count()).toBe(2500);
        await expect(store.table('t').select(undefined, { cols: ['name'] }).all()).rejects.toMatchObject({ code: 'Corrupt', path: victim });
        const altered = new Schema([...schema.fields.filter((f) => f.name !== 'ok'), new Field('extra', new Int64(), true)]);
        await expect(store.table('t').alter(altered)).rejects.toMatchObject({ code: 'Corrupt', column: 'name' });
        // an insert's compaction trigger neither merges the damaged partition nor reports it again
        await store.table('t').insert([row(2500)]);
        await store.idle();
        expect(reports).toHaveLength(1);
        await store.close();
        await expectNoOrphans(d.path);
        // the byte back: every row, in order, and the schema as it was
        await writeFile(path, clean);
        store = await openStore({ path: d.path, workers: 0 });
        expect((await store.table('t').schema())?.fields.map((f) => f.name)).toEqual(schema.fields.map((f) => f.name));
        expect((await store.table('t').select(undefined, { cols: ['id', 'name'] }).all()).map((r) => r.name)).toEqual(Array.from({ length: 2501 }, (_, i) => row(i).name));
        await store.close();
      } finally {
        await d.remove();
      }
    }
  }, 60_000);

  it('reports background failures as a process warning by default', async () => {
    const d = await tempDir();
    try {
      let store = await openStore({ path: d.path, workers: 0, partitionRows: 4000, compactRun: 100 });
      await store.table('t').create(schema);
      for (let k = 0; k < 2; k++) await store.table('t').insert(Array.from({ length: 500 }, (_, i) => row(k * 500 + i)));
      const snap = openSnapshot((store as unknown as { ctx: StoreContext }).ctx, 't');
      snap.release();
      await store.close();
      const victim = snap.parts[0]!.file;
      const bytes = await readFile(join(d.path, victim));
      bytes[decodeFooter(bytes, victim).columns.find((s) => s.name === 'depth')!.offset + 3]! ^= 0x01;
      await writeFile(join(d.path, victim), bytes);
      const warnings: Error[] = [];
      const listen = (w: Error) => warnings.push(w);
      process.on('warning', listen);
      try {
        store = await openStore({ path: d.path, workers: 0, partitionRows: 4000, compactRun: 2 });
        await store.table('t').insert([row(1000)]); // schedules compaction of the three partitions
        await store.idle();
        await store.close();
        await new Promise((r) => setImmediate(r)); // warnings are emitted on the next tick
      } finally {
        process.off('warning', listen);
      }
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatchObject({ name: 'HaloclineWarning', code: 'Corrupt', message: expect.stringContaining(victim) });
      await expect(openStore({ path: d.path, onBackgroundError: 'log' as never })).rejects.toMatchObject({ code: 'InvalidArgument', message: expect.stringContaining('onBackgroundError') });
    } finally {
      await d.remove();
    }
  });
});

async function onlyFile(root: string): Promise<string> {
  const files = (await readdir(join(root, 'parts'), { recursive: true })).filter((f) => f.endsWith('.hlp'));
  expect(files).toHaveLength(1);
  return join('parts', files[0]!);
}
