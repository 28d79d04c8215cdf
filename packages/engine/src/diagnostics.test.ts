// Commit events on the `halocline:commit` diagnostics channel: one per new version, with what it wrote, deleted and retired, and its phases in order.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { Field, Float64, Int32, Schema } from 'apache-arrow';
import { describe, expect, it, onTestFinished } from 'vitest';
import { COMMIT_CHANNEL, type CommitEvent } from './index.js';
import { rejected } from './test-util/errors.js';
import { freshStore } from './test-util/store.js';

const schema = new Schema([new Field('id', new Int32(), false), new Field('temp', new Float64(), true)]);
const rows = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => ({ id: from + i, temp: from + i }));
// the same rows as a CSV file
const csvOf = (from: number, to: number) => new TextEncoder().encode(`id,temp\n${rows(from, to).map((r) => `${r.id},${r.temp}`).join('\n')}\n`);

// each event's phases in order: begun, files durable, version durable
function phasesInOrder(events: readonly CommitEvent[]): void {
  for (const e of events) {
    expect(e.started).toBeLessThanOrEqual(e.written);
    expect(e.written).toBeLessThanOrEqual(e.committed);
  }
}

// the commit events published while the current test runs, of tables other tests do not use
function listen(): CommitEvent[] {
  const seen: CommitEvent[] = [];
  const onEvent = (e: unknown) => seen.push(e as CommitEvent);
  subscribe(COMMIT_CHANNEL, onEvent);
  onTestFinished(() => void unsubscribe(COMMIT_CHANNEL, onEvent));
  return seen;
}

describe('the commit channel', () => {
  it('publishes every commit once its version is durable: inserts, transactions, compaction, alter and truncate, with their rows and phases in order', async () => {
    const store = await freshStore({ workers: 2, partitionRows: 1000, compactRun: 4 });
    const t = store.table('events');
    await t.create(schema);
    const seen = listen();

    for (let k = 0; k < 4; k++) await t.insert(rows(k * 100, (k + 1) * 100));
    await store.idle(); // the four 100-row partitions are merged
    const inserts = seen.filter((e) => e.kind === 'insert');
    expect(inserts.map((e) => [e.table, e.rows, e.files, e.deleted, e.removed])).toEqual(Array.from({ length: 4 }, () => ['events', 100, 1, 0, 0]));
    const merge = seen.find((e) => e.kind === 'compaction');
    expect(merge).toMatchObject({ table: 'events', rows: 400, removed: 4, deleted: 0 });

    const n = await t.transaction(async (tx) => {
      let replaced = 0;
      for await (const old of tx.replace('id < 10')) {
        await tx.insert({ ...old, temp: (old.temp as number) + 1 });
        replaced++;
      }
      await tx.insert(rows(400, 450));
      return replaced + (await tx.delete('id >= 390 and id < 400'));
    });
    expect(n).toBe(20);
    const last = (kind: CommitEvent['kind']) => seen.filter((e) => e.kind === kind).at(-1);
    expect(last('transaction')).toMatchObject({ table: 'events', rows: 60, deleted: 20, removed: 0 });

    // a CSV file appended through ingest
    await t.raw.ingest(await t.raw.upload('more.csv', csvOf(500, 530)), { opt: 'append' });
    expect(last('ingest')).toMatchObject({ table: 'events', rows: 30, deleted: 0, removed: 0 });

    await t.alter(new Schema([...schema.fields, new Field('salinity', new Float64(), true)]));
    expect(last('alter')).toMatchObject({ table: 'events', rows: 470 });
    await t.truncate();
    expect(last('truncate')).toMatchObject({ table: 'events', rows: 0, files: 0 });
    expect(last('truncate')!.removed).toBeGreaterThan(0);

    // versions in commit order, each commit's phases in order
    const versions = seen.map((e) => e.version);
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
    expect(new Set(versions).size).toBe(versions.length);
    phasesInOrder(seen);
  });

  it('publishes an ingest that creates or recreates its table, as its version 1', async () => {
    const store = await freshStore();
    const t = store.table('made');
    const seen = listen();
    await t.raw.ingest(await t.raw.upload('a.csv', csvOf(0, 25)));
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ table: 'made', kind: 'ingest', version: 1, files: 1, rows: 25, deleted: 0, removed: 0 });
    await t.raw.ingest(await t.raw.upload('b.csv', csvOf(100, 107)), { opt: 'drop' });
    expect(seen).toHaveLength(2);
    expect(seen[1]).toMatchObject({ table: 'made', kind: 'ingest', version: 1, rows: 7, removed: 1 });
    phasesInOrder(seen);
  });

  it('publishes nothing for a commit that fails or a transaction that writes nothing', async () => {
    const store = await freshStore();
    const t = store.table('quiet');
    await t.create(schema);
    await t.insert(rows(0, 10));
    const seen = listen();
    const a = await t.begin();
    const b = await t.begin();
    await a.delete('id < 5');
    await b.delete('id < 3');
    await a.commit();
    await rejected('Conflict', b.commit());
    await t.transaction(async (tx) => tx.select().count());
    await rejected('InvalidData', t.insert([{ id: 'x' }]));
    expect(seen.map((e) => [e.kind, e.deleted])).toEqual([['transaction', 5]]);
  });
});
