// Damaged partition files: a byte changed anywhere in a column's segment makes every read of that
// column (queries, merges, alter) fail with Corrupt naming the file and the column, never a wrong
// answer, and a merge or an alter over it leaves the store as it was.
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

  it('fails a merge or an alter over a damaged input and leaves the store as it was, with the part writer and without', async () => {
    for (const workers of [0, 1]) {
      const d = await tempDir();
      try {
        let store = await openStore({ path: d.path, workers, partitionRows: 4000, compactRun: 100 });
        const t = store.table('t');
        await t.create(schema);
        for (let k = 0; k < 3; k++) await t.insert(Array.from({ length: 500 }, (_, i) => row(k * 500 + i)));
        await store.close();
        const files = await readdir(join(d.path, 'parts'), { recursive: true });
        const victim = files.filter((f) => f.endsWith('.hlp')).sort()[1]!;
        const path = join(d.path, 'parts', victim);
        const clean = await readFile(path);
        const seg = decodeFooter(clean, victim).columns.find((s) => s.name === 'name')!;
        const damaged = Buffer.from(clean);
        damaged[seg.offset + (seg.length >> 1)]! ^= 0x20;
        await writeFile(path, damaged);
        store = await openStore({ path: d.path, workers, partitionRows: 4000, compactRun: 2 });
        const ctx = (store as unknown as { ctx: StoreContext }).ctx;
        const snap = openSnapshot(ctx, 't');
        snap.release();
        await expect(compactOnce(ctx, 't', snap.record.id)).rejects.toMatchObject({ code: 'Corrupt', column: 'name', message: expect.stringContaining(victim) });
        const altered = new Schema([...schema.fields.filter((f) => f.name !== 'ok'), new Field('extra', new Int64(), true)]);
        await expect(store.table('t').alter(altered)).rejects.toMatchObject({ code: 'Corrupt', column: 'name' });
        await store.close();
        // nothing changed: the same files, the same rows once the byte is back
        await expectNoOrphans(d.path);
        expect((await readdir(join(d.path, 'parts'), { recursive: true })).sort()).toEqual(files.sort());
        await writeFile(path, clean);
        store = await openStore({ path: d.path, workers: 0 });
        expect((await store.table('t').schema())?.fields.map((f) => f.name)).toEqual(schema.fields.map((f) => f.name));
        expect((await store.table('t').select(undefined, { cols: ['id', 'name'] }).all()).map((r) => r.name)).toEqual(Array.from({ length: 1500 }, (_, i) => row(i).name));
        await store.close();
      } finally {
        await d.remove();
      }
    }
  }, 60_000);
});

async function onlyFile(root: string): Promise<string> {
  const files = (await readdir(join(root, 'parts'), { recursive: true })).filter((f) => f.endsWith('.hlp'));
  expect(files).toHaveLength(1);
  return join('parts', files[0]!);
}
