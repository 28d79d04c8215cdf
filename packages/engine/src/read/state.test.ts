// The per-process table state behind snapshots: reused while the version stands, read incrementally after a commit.
import { Field, Float64, Int32, Schema } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import type { StoreContext } from '../context.js';
import { encodePositions } from '../mvcc/positions.js';
import { type DeleteRecord, type PartRecord, type TableRecord, deleteKey, partKey } from '../storage/records.js';
import { freshStore } from '../test-util/store.js';
import { openSnapshot } from './snapshot.js';
import { stateAt } from './state.js';

const schema = new Schema([new Field('id', new Int32(), false), new Field('v', new Float64(), true)]);
const rows = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ id: from + i, v: from + i }));

// a context over an in-memory key space that records which keys were read
function memoryContext() {
  const data = new Map<string, unknown>();
  const reads: string[] = [];
  const sorted = (prefix: string) => [...data.keys()].filter((k) => k.startsWith(prefix)).sort();
  const meta = {
    keys: sorted,
    get: (key: string) => (reads.push(key), data.get(key)),
  };
  return { ctx: { meta } as unknown as StoreContext, data, reads };
}

const part = (id: string, seq: number, added: number): PartRecord =>
  ({ id, table: 'T', seq, rows: 20, bytes: 0, file: '', segments: [], zones: {}, added }) as PartRecord;
const del = (p: string, version: number, positions: number[]): DeleteRecord => ({ part: p, version, rows: encodePositions(Uint32Array.from(positions)), count: positions.length });
const record = (version: number) => ({ id: 'T', version }) as TableRecord;

describe('table state of snapshots', () => {
  it('reuses the state of an unchanged version, and reads only the records a commit added', () => {
    const { ctx, data, reads } = memoryContext();
    data.set(partKey('T', 'a'), part('a', 0, 1));
    data.set(partKey('T', 'b'), part('b', 1, 2));
    data.set(deleteKey('T', 'a', 3), del('a', 3, [1, 5]));
    const v3 = stateAt(ctx, record(3));
    expect(v3.parts.map((p) => p.id)).toEqual(['a', 'b']);
    expect(stateAt(ctx, record(3))).toBe(v3);

    reads.length = 0;
    data.set(deleteKey('T', 'a', 4), del('a', 4, [2]));
    data.set(deleteKey('T', 'b', 4), del('b', 4, [19]));
    data.set(partKey('T', 'c'), part('c', 2, 4));
    const v4 = stateAt(ctx, record(4));
    expect(reads.sort()).toEqual([deleteKey('T', 'a', 4), deleteKey('T', 'b', 4), partKey('T', 'c')]);
    expect(v4.parts.map((p) => p.id)).toEqual(['a', 'b', 'c']);
    expect([...v4.deleted.get('a')!.rows!]).toEqual([1, 2, 5]);
    expect(v4.deleted.get('a')!.count).toBe(3);
    expect([...v4.deleted.get('b')!.rows!]).toEqual([19]);
    // the older version's state is what it was
    expect([...v3.deleted.get('a')!.rows!]).toEqual([1, 5]);
    expect(v3.deleted.has('b')).toBe(false);

    // a fresh process reading the same keys builds the same state from scratch
    const fresh = memoryContext();
    for (const [k, v] of data) fresh.data.set(k, v);
    const rebuilt = stateAt(fresh.ctx, record(4));
    for (const id of ['a', 'b']) expect([...rebuilt.deleted.get(id)!.bits]).toEqual([...v4.deleted.get(id)!.bits]);
    // a removed partition is forgotten; a reader at an older version never sees newer records
    data.delete(partKey('T', 'b'));
    data.delete(deleteKey('T', 'b', 4));
    expect(stateAt(ctx, record(5)).parts.map((p) => p.id)).toEqual(['a', 'c']);
    expect(stateAt(fresh.ctx, record(3)).deleted.get('a')!.count).toBe(2);
  });

  it('gives snapshots of a live table the committed rows after deletes and inserts', async () => {
    const store = await freshStore({ partitionRows: 100 });
    const ctx = (store as unknown as { ctx: StoreContext }).ctx;
    const t = store.table('t');
    await t.create(schema);
    for (let i = 0; i < 3; i++) await t.insert(rows(i * 100, 100));
    await t.transaction(async (tx) => void (await tx.delete('id < 10')));
    const before = openSnapshot(ctx, 't');
    await t.transaction(async (tx) => void (await tx.delete('id >= 10 and id < 15 or id == 250')));
    await t.insert(rows(300, 7));
    const after = openSnapshot(ctx, 't');
    expect(before.parts.reduce((n, p) => n + p.rows - (before.deleted.get(p.id)?.count ?? 0), 0)).toBe(290);
    expect(after.parts.reduce((n, p) => n + p.rows - (after.deleted.get(p.id)?.count ?? 0), 0)).toBe(291);
    for (const s of [before, after]) s.release();
    expect(await t.select().count()).toBe(291);
    expect(await t.select('v >= 0').count()).toBe(291);
    expect(await t.select('v < 100').count()).toBe(85); // ids 15..99 survive in the first partition
  });
});
