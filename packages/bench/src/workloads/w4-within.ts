// W4: exact `within` a 6-edge polygon (~1% of the rows), through the box prefilter and jsts.
import type { ResultRow } from '../report.js';
import { compare, type Workload } from './workload.js';

/** A hexagon in the North Atlantic; about 1% of the generated rows fall inside. */
export const HEXAGON = 'POLYGON((-45 20, -30 20, -22 32, -30 44, -45 44, -53 32, -45 20))';

export const w4: Workload = {
  id: 'W4',
  title: 'exact within a hexagon',
  async run(ctx) {
    // DuckDB without the spatial extension (no network here) cannot test polygons: its side counts
    // the hexagon's bounding box, for scale only
    const sql = 'SELECT count(*) FROM obs WHERE lon BETWEEN -53 AND -22 AND lat BETWEEN 20 AND 44';
    const out: ResultRow[] = [];
    for (const [label, filter] of [['W4 count lat within hexagon (lat/lon)', 'lat within $p'], ['W4 count geom within hexagon (WKB)', 'geom within $p']] as const) {
      const c = await compare(ctx, (store) => { const t = store.table('geo'); return () => t.select(filter, { vars: { p: HEXAGON } }).count(); }, () => ctx.duck.count(sql));
      const ms = c.engine?.median;
      out.push({
        workload: label,
        engine: c.engine,
        duckdb: c.duckdb,
        measured: ms === undefined ? undefined : `${ms.toFixed(1)} ms`,
        target: '≤ 34 ms',
        pass: ms === undefined ? undefined : ms <= 34,
        notes: [`engine: ${c.engineResult} of ${ctx.rows} rows (${((100 * (c.engineResult ?? 0)) / ctx.rows).toFixed(2)}%); DuckDB side counts the bounding box (${c.duckResult}), not the polygon`, ...(c.engineError ? [c.engineError] : [])],
      });
    }
    return out;
  },
};
