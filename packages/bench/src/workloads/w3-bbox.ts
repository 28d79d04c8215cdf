// W3: bounding-box filter, a 10°×10° box: `geom ~ box` on WKB points, the lat/lon pair, and a lat/lon range.
import { ratio, type ResultRow } from '../report.js';
import { agreementNotes, compare, type Workload } from './workload.js';

/** The query box: 10° × 10° in the North Atlantic. */
export const BOX = { lon0: -40, lon1: -30, lat0: 30, lat1: 40 };
const wkt = `POLYGON((${BOX.lon0} ${BOX.lat0}, ${BOX.lon1} ${BOX.lat0}, ${BOX.lon1} ${BOX.lat1}, ${BOX.lon0} ${BOX.lat1}, ${BOX.lon0} ${BOX.lat0}))`;
const range = `lon >= ${BOX.lon0} and lon <= ${BOX.lon1} and lat >= ${BOX.lat0} and lat <= ${BOX.lat1}`;

export const w3: Workload = {
  id: 'W3',
  title: 'bbox filter 10°×10°',
  async run(ctx) {
    const sql = `SELECT count(*) FROM obs WHERE ${range}`;
    const variants: [string, string][] = [
      ['W3 count geom ~ 10°×10° (WKB points)', 'geom ~ $box'],
      ['W3 count lat ~ 10°×10° (lat/lon pair)', 'lat ~ $box'],
      ['W3 count lat/lon range 10°×10°', range],
    ];
    const out: ResultRow[] = [];
    for (const [label, filter] of variants) {
      const c = await compare(ctx, (store) => { const t = store.table('geo'); const options = filter.includes('$box') ? { vars: { box: wkt } } : {}; return () => t.select(filter, options).count(); }, () => ctx.duck.count(sql));
      const q = ratio(c);
      const notes = agreementNotes(c, 'count', c.engineResult, c.duckResult);
      notes.push(`matches ${c.duckResult} rows; DuckDB: ${range.replaceAll(' and ', ' AND ')}`);
      const ms = c.engine?.median;
      out.push({
        workload: label,
        engine: c.engine,
        duckdb: c.duckdb,
        measured: q === undefined ? undefined : `${q.toFixed(2)}×`,
        target: '≤ 11 ms and ≤ 0.2× DuckDB',
        pass: q === undefined || ms === undefined ? undefined : ms <= 11 && q <= 0.2 && c.engineResult === c.duckResult,
        notes,
      });
    }
    return out;
  },
};
