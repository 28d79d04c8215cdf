// W8: fixed per-query overhead, a filtered count on a 1-row table, timed over many runs by tinybench.
import { generateTable, obsSchema } from '../generate.js';
import { formatMs, type ResultRow, type Stats } from '../report.js';
import { measureMany } from '../measure.js';
import { describeError, type Workload } from './workload.js';

const TARGET_MS = 1;
const TIME_MS = 2000;
const FILTER = 'depth > 100';

export const w8: Workload = {
  id: 'W8',
  title: 'per-query overhead',
  async run(ctx) {
    const one = generateTable({ rows: 1, seed: ctx.seed });
    const notes: string[] = [];
    let engine: Stats | undefined;
    if (typeof ctx.store === 'string') {
      notes.push(`engine error: ${ctx.store}`);
    } else {
      try {
        const t = ctx.store.table('w8_tiny');
        await t.create(obsSchema);
        await t.insert(one);
        const expected = (one.get(0)!.depth as number) > 100 ? 1 : 0;
        const got = await t.select(FILTER).count();
        if (got !== expected) notes.push(`MISMATCH: engine count ${got}, expected ${expected}`);
        engine = await measureMany(() => t.select(FILTER).count(), TIME_MS);
        await t.drop();
      } catch (e) {
        notes.push(`engine error: ${describeError(e)}`);
      }
    }
    await ctx.duck.createObsTable('w8_tiny');
    await ctx.duck.append('w8_tiny', one.batches);
    const sql = `SELECT count(*) FROM w8_tiny WHERE ${FILTER}`;
    const duckdb = await measureMany(() => ctx.duck.count(sql), TIME_MS);
    await ctx.duck.connection.run('DROP TABLE w8_tiny');
    notes.push(`runs: engine ${engine?.runs ?? '—'}, DuckDB ${duckdb.runs} (tinybench, ${TIME_MS} ms each)`);
    const row: ResultRow = {
      workload: `W8 count ${FILTER} on a 1-row table`,
      engine,
      duckdb,
      measured: engine ? `${formatMs(engine.median)} ms` : undefined,
      target: `≤ ${TARGET_MS} ms median`,
      pass: engine ? engine.median <= TARGET_MS && notes.length === 1 : undefined,
      notes,
    };
    return [row];
  },
};
