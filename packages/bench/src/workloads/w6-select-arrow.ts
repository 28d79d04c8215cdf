// W6: select every column of the matching rows into an Arrow Table, at ~0.1% and ~8.3% selectivity.
import { Table, type RecordBatch } from 'apache-arrow';
import { ratio, type ResultRow } from '../report.js';
import { agreementNotes, compare, type BenchContext, type Workload } from './workload.js';

export const w6: Workload = {
  id: 'W6',
  title: 'select all columns into Arrow',
  async run(ctx) {
    return [
      await selectRow(ctx, 'W6 select * depth > 5994 (~0.1%)', 'depth > 5994'),
      await selectRow(ctx, 'W6 select * depth > 5500 (~8.3%)', 'depth > 5500', 0.5),
    ];
  },
};

async function selectRow(ctx: BenchContext, label: string, filter: string, maxRatio?: number): Promise<ResultRow> {
  const c = await compare(
    ctx,
    (store) => {
      const t = store.table('obs');
      return async () => {
        const batches: RecordBatch[] = [];
        for await (const b of t.select(filter).batches()) batches.push(b);
        return new Table(batches);
      };
    },
    () => ctx.duck.selectArrow(`SELECT * FROM obs WHERE ${filter}`),
  );
  const q = ratio(c);
  const notes = agreementNotes(c, 'rows/id sum', fingerprint(c.engineResult), fingerprint(c.duckResult));
  notes.push(
    `${c.duckResult.numRows} rows; engine ${c.engineResult?.batches.length ?? '—'} batches, DuckDB ${c.duckResult.batches.length} batches ` +
      '(DuckDB: run() materialises, fetchChunk() per chunk, vector buffers copied into Arrow)',
  );
  const pass = maxRatio === undefined || q === undefined ? undefined : q <= maxRatio && notes.length === 1;
  return {
    workload: label,
    engine: c.engine,
    duckdb: c.duckdb,
    measured: q === undefined ? undefined : `${q.toFixed(2)}×`,
    target: maxRatio === undefined ? undefined : `≤ ${maxRatio.toFixed(1)}× DuckDB`,
    pass,
    notes,
  };
}

/** Row count and the sum of ids: equal for the same set of rows. */
function fingerprint(t: Table | undefined): string | undefined {
  if (!t) return undefined;
  let sum = 0;
  for (const id of (t.getChild('id')?.toArray() ?? []) as BigInt64Array) sum += Number(id);
  return `${t.numRows}/${sum}`;
}
