// Property: a select through the whole engine (partitions, compaction, zone-map pruning, the worker
// pool) returns exactly the rows the reference evaluator selects, in insertion order.
import fc from 'fast-check';
import { Field, Int32, RecordBatch, Schema, Struct, makeData, vectorFromArray } from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluateRow, prepareFilter } from './expr/index.js';
import { type Chunk, chunkArb } from './expr/data.fixture.js';
import { queryArb } from './expr/expr.fixture.js';
import { type Store, openStore } from './index.js';
import { tempDir } from './test-util/tmp.js';

let store: Store;
let remove: () => Promise<void>;
let tables = 0;

beforeAll(async () => {
  const dir = await tempDir();
  remove = dir.remove;
  store = await openStore({ path: dir.path, workers: 2, partitionRows: 16, inlineRows: 8, compactRun: 3 });
});
afterAll(async () => {
  await store.close();
  await remove();
});

// the chunk's columns plus a row number `rid`, as one record batch
function batchOf(chunk: Chunk): RecordBatch {
  const schema = new Schema([...chunk.schema.fields, new Field('rid', new Int32(), false)]);
  const children = chunk.schema.fields.map((f) => {
    const kind = chunk.kinds[f.name]!;
    const cells = chunk.values[f.name]!.map((v) => (v === null ? null : kind === 'date32' ? (v as number) * 86_400_000 : kind === 'timestamp' ? Number(v) : v));
    return vectorFromArray(cells as unknown[], f.type).data[0]!;
  });
  children.push(vectorFromArray(Array.from({ length: chunk.length }, (_, i) => i), new Int32()).data[0]!);
  return new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length: chunk.length, nullCount: 0, children }));
}

const caseArb = chunkArb.chain((chunk) => fc.tuple(fc.constant(chunk), queryArb(chunk), fc.array(fc.nat(), { maxLength: 6 })));

describe('select through the engine', () => {
  it('matches the reference evaluator row for row', async () => {
    await fc.assert(
      fc.asyncProperty(caseArb, async ([chunk, { query, vars }, cuts]) => {
        const batch = batchOf(chunk);
        const t = store.table(`t${tables++}`);
        await t.create(batch.schema);
        // several inserts, so rows spread over partitions (and compaction merges some)
        const bounds = [...new Set([0, ...cuts.map((c) => (chunk.length ? c % chunk.length : 0)), chunk.length])].sort((a, b) => a - b);
        for (let i = 0; i + 1 < bounds.length; i++) await t.insert(batch.slice(bounds[i], bounds[i + 1]));
        const { typed } = prepareFilter(query, batch.schema, vars);
        const want: number[] = [];
        for (let i = 0; i < chunk.length; i++) if (evaluateRow(typed, (c) => chunk.values[c]![i]) === true) want.push(i);
        const got = (await t.select(query, { vars, cols: ['rid'] }).all()).map((r) => r.rid);
        expect(got).toEqual(want);
        expect(await t.select(query, { vars }).count()).toBe(want.length);
      }),
      { numRuns: 60 },
    );
  });
});
